// What the build reads to generate the built-in tools' validators (scripts/build-plugins.mjs).
export { ALL_BUILTIN_FACTORY_NAMES, createBuiltinTools } from '../src/tools/builtin/index.js';
export { TOOL_AJV_OPTIONS } from '../src/util/json-schema.js';
