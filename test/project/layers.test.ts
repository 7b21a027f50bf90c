// Imports point downwards (DESIGN.md): cli -> runner -> loop -> tools/policy/providers -> shared
// types. A newcomer can rely on it: tools never know about the policy or the loop, the loop never
// prints or writes and asks the policy only through the judge it is given, the report is a fold
// over events that knows nothing but types/, and nothing but the CLI knows the CLI. Type-only
// imports count too.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const SRC = path.join(ROOT, 'src');

/** Layer -> the layers it must never import. */
const FORBIDDEN: Record<string, string[]> = {
  types: ['cli', 'runner', 'loop', 'report', 'tools', 'policy', 'providers', 'recipe', 'batch', 'action', 'git'],
  util: ['cli', 'runner', 'loop', 'report', 'tools', 'policy', 'providers', 'recipe', 'batch', 'action', 'git'],
  recipe: ['cli', 'runner', 'loop', 'report', 'policy', 'providers', 'batch', 'action', 'git'],
  tools: ['cli', 'runner', 'loop', 'report', 'policy', 'batch', 'action', 'git'],
  policy: ['cli', 'runner', 'loop', 'report', 'providers', 'batch', 'action', 'git'],
  providers: ['cli', 'runner', 'loop', 'report', 'tools', 'policy', 'batch', 'action', 'git'],
  loop: ['cli', 'runner', 'report', 'policy', 'recipe', 'batch', 'action', 'git'],
  report: ['cli', 'runner', 'loop', 'tools', 'policy', 'providers', 'recipe', 'batch', 'action', 'git'],
  runner: ['cli', 'batch', 'action'],
  telemetry: ['cli', 'runner', 'loop', 'report', 'tools', 'policy', 'providers', 'recipe', 'batch', 'action', 'git'],
  sandbox: ['cli', 'runner', 'loop', 'report', 'tools', 'policy', 'providers', 'batch', 'action', 'git'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

function importedLayers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const layers: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
    const target = path.relative(SRC, path.resolve(path.dirname(file), m[1]!));
    layers.push(target.split(path.sep)[0]!);
  }
  return layers;
}

describe('layering', () => {
  it('finds the source tree', () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(50);
  });

  it('the loop neither prints nor writes, and the report fold reads nothing but its events', () => {
    const offenders: string[] = [];
    const io = /from '(node:)?(fs|fs\/promises|child_process|net|http|https)'|process\.(stdout|stderr)|console\./;
    const pure = [...sourceFiles(path.join(SRC, 'loop')), path.join(SRC, 'report', 'fold.ts')];
    for (const file of pure) if (io.test(fs.readFileSync(file, 'utf8'))) offenders.push(path.relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('no layer imports a layer above it', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const layer = path.relative(SRC, file).split(path.sep)[0]!;
      for (const target of importedLayers(file)) {
        if (FORBIDDEN[layer]?.includes(target)) violations.push(`${path.relative(ROOT, file)} imports ${target}/`);
      }
    }
    expect(violations).toEqual([]);
  });
});
