// The price table's CommonJS build (@pydantic/genai-prices) with its data as a JSON text.
//
// Why: the package is one file whose data, every provider and model, is a ~460 kB JavaScript array
// literal, and loading it is part of every run that starts without the day's answer (each run of a
// fresh CI job). V8 parses JSON faster than it compiles the same data as code: measured in a fresh
// node, the table's load went from 46-47 to 36-37 ms and its RSS cost from +20 to +15-16 MB (the
// rest is the library's own set-up, its units registry). The data is the same value: the literal
// is evaluated here and its JSON text must give back a deeply equal value, or the build fails.
import { isDeepStrictEqual } from 'node:util';
import ts from 'typescript';

/**
 * The one top-level `const X = [ {…api_pattern…}, … ]` of the package's source: its start and
 * end offsets and its value. Throws when there is not exactly one (the package changed shape).
 */
export function priceTableData(source) {
  const file = ts.createSourceFile('genai-prices.cjs', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const literals = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer;
      if (value && ts.isArrayLiteralExpression(value) && value.elements.length > 0 && value.elements.every((e) => isProvider(e, file))) literals.push(value);
    }
  }
  if (literals.length !== 1) throw new Error(`genai-prices: expected one array literal of providers at the top level, found ${literals.length}`);
  const [literal] = literals;
  const start = literal.getStart(file);
  // The package's own literal: an expression of object, array, string, number and boolean literals.
  const data = new Function(`return (${source.slice(start, literal.end)});`)();
  return { start, end: literal.end, data };
}

/** `source` with its provider data as `JSON.parse("…")`; throws when the data is not exactly JSON. */
export function withJsonPriceData(source) {
  const { start, end, data } = priceTableData(source);
  const json = JSON.stringify(data);
  if (!isDeepStrictEqual(JSON.parse(json), data)) throw new Error('genai-prices: the provider data does not survive JSON (a value JSON cannot hold)');
  return `${source.slice(0, start)}JSON.parse(${JSON.stringify(json)})${source.slice(end)}`;
}

function isProvider(node, file) {
  return ts.isObjectLiteralExpression(node) && node.properties.some((p) => ts.isPropertyAssignment(p) && p.name.getText(file) === 'api_pattern');
}
