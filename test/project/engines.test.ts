// The machines run Node 20: every installed package must accept Node 20.19, and keep doing so as
// dependencies are upgraded. A package whose `engines.node` excludes 20.19 fails this test.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const NODE = [20, 19, 0] as const;

/** Enough of semver ranges for engines fields: ||, spaces (and), >=, >, <=, <, ^, ~, x, =. */
function satisfies(range: string, [maj, min, pat]: readonly [number, number, number]): boolean {
  const v = maj * 1e6 + min * 1e3 + pat;
  const num = (s: string) => {
    const [a = '0', b = '0', c = '0'] = s.replace(/^v/, '').split('.');
    const n = (x: string) => (x === 'x' || x === '*' ? 0 : Number.parseInt(x, 10) || 0);
    return n(a) * 1e6 + n(b) * 1e3 + n(c);
  };
  return range.split('||').some((alt) => {
    const parts = alt.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    if (parts.length === 0 || parts.includes('*')) return true;
    return parts.every((p) => {
      const m = /^(>=|<=|>|<|=|\^|~)?(.*)$/.exec(p)!;
      const op = m[1] ?? '=';
      const x = num(m[2]!);
      const [a = 0, b = 0] = m[2]!.split('.').map((s) => Number.parseInt(s, 10) || 0);
      switch (op) {
        case '>=': return v >= x;
        case '>': return v > x;
        case '<=': return v <= x;
        case '<': return v < x;
        case '^': return v >= x && maj === a;
        case '~': return v >= x && maj === a && min === b;
        default: return /\d+\.\d+\.\d+/.test(m[2]!) ? v === x : maj === a && (!m[2]!.includes('.') || min === b);
      }
    });
  });
}

function installedPackages(dir: string): Array<{ name: string; engines?: { node?: string } }> {
  const found: Array<{ name: string; engines?: { node?: string } }> = [];
  const walk = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    for (const entry of fs.readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const full = path.join(modules, entry);
      if (entry.startsWith('@')) {
        for (const scoped of fs.readdirSync(full)) visit(path.join(full, scoped));
      } else visit(full);
    }
  };
  const visit = (pkgDir: string) => {
    const manifest = path.join(pkgDir, 'package.json');
    if (fs.existsSync(manifest)) found.push(JSON.parse(fs.readFileSync(manifest, 'utf8')));
    walk(path.join(pkgDir, 'node_modules'));
  };
  walk(path.join(dir, 'node_modules'));
  return found;
}

describe('Node 20.19 compatibility', () => {
  it('the range checker reads engines fields correctly', () => {
    expect(satisfies('>=20.19', NODE)).toBe(true);
    expect(satisfies('^20.19.0 || ^22.12.0 || >=23', NODE)).toBe(true);
    expect(satisfies('>=22', NODE)).toBe(false);
    expect(satisfies('^22.12.0 || ^24.0.0', NODE)).toBe(false);
    expect(satisfies('>= 18', NODE)).toBe(true);
    expect(satisfies('20 || >=22', NODE)).toBe(true);
  });

  it('every installed package accepts Node 20.19', () => {
    const rejecting = installedPackages(ROOT)
      .filter((p) => typeof p.engines?.node === 'string' && !satisfies(p.engines.node, NODE))
      .map((p) => `${p.name} (engines.node ${p.engines!.node})`);
    expect(rejecting).toEqual([]);
  });

  it('the project itself declares it', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('>=20.19');
  });
});

describe('package-lock.json', () => {
  it("describes the package as package.json does, so an install of a fresh clone leaves the checkout clean", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
    const root = lock.packages[''];
    expect({ name: root.name, version: root.version, bin: root.bin, engines: root.engines }).toEqual({ name: pkg.name, version: pkg.version, bin: pkg.bin, engines: pkg.engines });
    expect(Object.keys(root.devDependencies ?? {}).sort()).toEqual(Object.keys(pkg.devDependencies ?? {}).sort());
    expect(Object.keys(root.dependencies ?? {}).sort()).toEqual(Object.keys(pkg.dependencies ?? {}).sort());
  });
});
