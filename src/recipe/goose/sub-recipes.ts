// goose sub_recipes -> tasks for our sub-agents. goose turns each sub-recipe into a tool that runs
// it in a fresh agent; here the `task` tool runs a sub-agent with a fresh conversation, so each
// sub-recipe's instructions and prompt (its `values` filled in) are written into the main
// instructions, for the model to hand over as a task's prompt. A sub-agent shares the run's tools,
// model and policy: a sub-recipe's own extensions, settings, response and retry are reported.
import { dirname, resolve } from 'node:path';
import { yaml } from '../../util/yaml.js';
import { readRecipeText } from '../recipe-text.js';
import { describe as describeValue, isDict, type ConversionContext, type Dict } from './context.js';
import { convertTemplate } from './template.js';

const KNOWN = new Set(['name', 'path', 'values', 'description', 'sequential_when_repeated']);
const CARRIED = new Set(['version', 'title', 'description', 'instructions', 'prompt', 'parameters']);

/** The instructions section describing every sub-recipe, or null when there is none. */
export function convertSubRecipes(raw: unknown, ctx: ConversionContext): string | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw)) {
    ctx.problem(['sub_recipes'], 'goose sub_recipes are a list of {name, path, values}');
    return null;
  }
  const sections: string[] = [];
  raw.forEach((entry, i) => {
    if (!isDict(entry) || typeof entry.name !== 'string' || typeof entry.path !== 'string') {
      return ctx.problem(['sub_recipes', i], 'a sub-recipe needs a name and a path');
    }
    const label = `sub_recipes[${i}] '${entry.name}'`;
    for (const field of Object.keys(entry)) if (!KNOWN.has(field)) ctx.warn(`${label}.${field}`, 'not a goose sub-recipe field; ignored');
    if (entry.sequential_when_repeated !== undefined) ctx.warn(`${label}.sequential_when_repeated`, 'ignored: sub-agents run one at a time here');
    const file = resolve(ctx.dir, entry.path);
    let sub: Dict;
    try {
      // Read as the recipe is: UTF-8, capped in size.
      const read = readRecipeText(file);
      if ('problem' in read) {
        const { message, line, col } = read.problem;
        throw new Error(message.replace(/^cannot read recipe: /, '').replace(/^the recipe /, 'it ').replace(' here ', ` at line ${line}, column ${col} `));
      }
      const parsed: unknown = yaml().parse(read.text, { merge: true });
      sub = isDict(parsed) && isDict(parsed.recipe) ? parsed.recipe : (parsed as Dict);
      if (!isDict(sub) || (typeof sub.instructions !== 'string' && typeof sub.prompt !== 'string')) throw new Error('it has neither instructions nor prompt');
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
      return ctx.problem(['sub_recipes', i, 'path'], `sub-recipe '${entry.name}': cannot read ${file}: ${why}`);
    }
    const ignored = Object.keys(sub).filter((k) => !CARRIED.has(k));
    if (ignored.length) ctx.warn(label, `its ${ignored.join(', ')} ignored: a sub-agent shares the run's tools, model and policy`);
    sections.push(section(entry, sub, file, label, ctx));
  });
  if (sections.length === 0) return null;
  return [
    '## Sub-recipes',
    '',
    'Each sub-recipe below is a task for a sub-agent: call the `task` tool with the sub-recipe\u2019s name as the description and its text as the prompt, filling in the <values> it asks for.',
    '',
    ...sections,
  ].join('\n');
}

function section(entry: Dict, sub: Dict, file: string, label: string, ctx: ConversionContext): string {
  if (entry.values !== undefined && entry.values !== null && !isDict(entry.values)) {
    ctx.warn(`${label}.values`, `must be a map of the sub-recipe's parameters to values, got ${describeValue(entry.values)}; ignored`);
  }
  const values = isDict(entry.values) ? entry.values : {};
  const own = (text: string) => {
    const converted = convertTemplate(text, { recipe_dir: dirname(file) });
    for (const d of converted.dropped) ctx.warn(label, d);
    return converted.text;
  };
  // Values may name the parent's parameters: they stay placeholders, filled when the run starts.
  const parentTemplate = (text: string) => {
    const converted = convertTemplate(text, { recipe_dir: ctx.dir });
    for (const d of converted.dropped) ctx.warn(`${label}.values`, d);
    return converted.text;
  };
  const body = [sub.instructions, sub.prompt].filter((t): t is string => typeof t === 'string').map(own).join('\n\n');
  const params = Array.isArray(sub.parameters) ? (sub.parameters as unknown[]).filter(isDict) : [];
  const used = new Set([...params.map((p) => p.key), ...[...body.matchAll(/(?<!\\)\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].map((m) => m[1])]);
  for (const name of Object.keys(values)) {
    if (!used.has(name)) ctx.warn(`${label}.values.${name}`, `the sub-recipe has no parameter '${name}' and its text never uses it; ignored`);
  }
  const defaultOf = (name: string) => params.find((p) => p.key === name)?.default;
  // As goose fills them: the value given, else the parameter's default, else the caller says.
  const open = new Set<string>();
  const filled = body.replace(/(?<!\\)\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_whole, name: string) => {
    if (Object.hasOwn(values, name)) return parentTemplate(String(values[name]));
    const fallback = defaultOf(name);
    if (fallback !== undefined && fallback !== null) return String(fallback).replace(/\{\{/g, '\\{{');
    open.add(name);
    return `<${name}>`;
  });
  const describe = (name: string) => {
    const p = params.find((q) => q.key === name);
    const about = typeof p?.description === 'string' ? `: ${p.description}` : '';
    return `- <${name}>${about}`;
  };
  const description = typeof entry.description === 'string' ? entry.description : typeof sub.description === 'string' ? sub.description : '';
  return [
    `### ${String(entry.name)}`,
    ...(description ? ['', description] : []),
    ...(open.size ? ['', 'Values to fill in:', ...[...open].map(describe)] : []),
    '',
    filled.trim(),
    '',
  ].join('\n');
}
