// ajv, required on first use from its own file (util/assets.ts says why): most runs never compile a
// schema at run time (the recipe's and the built-in tools' validators are generated at build time),
// and loading ajv's 176 kB with the start-up code cost every CLI start its parse.
import type { Ajv as AjvClass } from 'ajv';
import { requireAsset } from './assets.js';

export function ajvClass(): typeof AjvClass {
  return requireAsset<typeof import('ajv')>('ajv.cjs').Ajv;
}
