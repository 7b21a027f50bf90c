// The pure parts of MCP support: schema cleaning, tool naming, content mapping.
import { describe, expect, it } from 'vitest';
import { mapMcpContent } from '../../../src/tools/mcp/content.js';
import { ToolNameAllocator, sanitizeName } from '../../../src/tools/mcp/names.js';
import { compileSchema } from '../../../src/util/json-schema.js';
import { MAX_CLEANED_SCHEMA_BYTES, SchemaTooLargeError, cleanParameterSchema } from '../../../src/tools/mcp/schema-clean.js';

describe('cleanParameterSchema', () => {
  it.each([
    [
      'drops keys Gemini rejects, keeps the rest',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'x',
        type: 'object',
        additionalProperties: false,
        properties: { path: { type: 'string', minLength: 1, description: 'File' } },
        required: ['path'],
      },
      { type: 'object', properties: { path: { type: 'string', minLength: 1, description: 'File' } }, required: ['path'] },
    ],
    [
      'inlines local $refs, keeping sibling descriptions',
      {
        type: 'object',
        properties: { when: { $ref: '#/$defs/Day', description: 'Which day' } },
        $defs: { Day: { type: 'string', enum: ['mon', 'tue'] } },
      },
      { type: 'object', properties: { when: { type: 'string', enum: ['mon', 'tue'], description: 'Which day' } } },
    ],
    [
      'a recursive $ref ends in an empty schema instead of looping',
      { type: 'object', properties: { node: { $ref: '#' } } },
      expect.objectContaining({ type: 'object' }),
    ],
    [
      'type unions: null becomes nullable, others anyOf; upper-case Gemini types are lowered',
      {
        type: 'OBJECT',
        properties: { a: { type: ['string', 'null'] }, b: { type: ['string', 'integer'] } },
      },
      {
        type: 'object',
        properties: { a: { type: 'string', nullable: true }, b: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      },
    ],
    [
      'format moves into the description; const becomes a one-value enum; oneOf becomes anyOf',
      {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', description: 'Where.' },
          mode: { const: 'fast' },
          either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        },
      },
      {
        type: 'object',
        properties: {
          url: { type: 'string', description: 'Where. Format: uri.' },
          mode: { enum: ['fast'] },
          either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        },
      },
    ],
    [
      'required entries without a property are dropped (Gemini rejects them)',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'ghost'] },
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    ],
    ['a missing schema becomes an empty object schema', undefined, { type: 'object', properties: {} }],
  ])('%s', (_name, input, expected) => {
    expect(cleanParameterSchema(input)).toEqual(expected);
  });

  it('array items are cleaned too', () => {
    const cleaned = cleanParameterSchema({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', additionalProperties: false, format: 'email' } } },
    });
    expect(cleaned.properties).toEqual({ tags: { type: 'array', items: { type: 'string', description: 'Format: email.' } } });
  });
});

describe('cleanParameterSchema on nullable and Python-made schemas: only loosens, and Ajv compiles it', () => {
  it.each([
    ['pydantic Optional[str]', { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'O' }, { type: 'string', nullable: true, default: null, title: 'O' }],
    ['Optional[Literal]', { anyOf: [{ enum: ['a', 'b'], type: 'string' }, { type: 'null' }] }, { type: 'string', enum: ['a', 'b', null], nullable: true }],
    ['Optional[Union[str, int]]', { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] }, { anyOf: [{ type: 'string', nullable: true }, { type: 'integer', nullable: true }] }],
    ['a type list with null', { type: ['string', 'integer', 'null'] }, { anyOf: [{ type: 'string', nullable: true }, { type: 'integer', nullable: true }] }],
    ['type null alone: any value', { type: 'null', description: 'd' }, { description: 'd' }],
    ['OpenAPI nullable beside a $ref', { $ref: '#/$defs/S', nullable: true }, { type: 'string', nullable: true }],
    ['a pattern Ajv cannot compile becomes a hint', { type: 'string', pattern: '^(?P<x>a+)$' }, { type: 'string', description: 'Pattern: ^(?P<x>a+)$.' }],
    ['a pattern Ajv compiles is kept', { type: 'string', pattern: '^a+$' }, { type: 'string', pattern: '^a+$' }],
  ])('%s', (_name, property, expected) => {
    const cleaned = cleanParameterSchema({ type: 'object', properties: { p: property }, $defs: { S: { type: 'string' } } });
    expect(cleaned.properties).toEqual({ p: expected });
    const validate = compileSchema(cleaned, { check: true });
    expect(validate({ p: null }) === null).toBe(!('pattern' in property));
  });
});

describe('cleanParameterSchema on schemas that would explode', () => {
  it('a self-referencing definition is inlined once, its recursion ends in {}', () => {
    const cleaned = cleanParameterSchema({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Node' } } } },
    });
    expect(cleaned.properties).toEqual({
      tree: { type: 'object', properties: { name: { type: 'string' }, child: {} } },
    });
  });

  it('the reviewer\'s 237-byte schema with 5 self-references stays small (it became 6.8 MB)', () => {
    const schema = {
      type: 'object',
      properties: { n: { $ref: '#/$defs/N' } },
      $defs: {
        N: {
          type: 'object',
          properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, { $ref: '#/$defs/N' }])),
        },
      },
    };
    expect(JSON.stringify(schema).length).toBeLessThan(300);
    const cleaned = cleanParameterSchema(schema);
    expect(JSON.stringify(cleaned).length).toBeLessThan(300);
    expect(cleaned.properties).toEqual({ n: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {}, e: {} } } });
  });

  it('definitions that fan out without recursing are refused once they pass the size cap', () => {
    // D0 uses D1 ten times, D1 uses D2 ten times...: 10^7 copies of D7 once inlined.
    const defs: Record<string, unknown> = { D7: { type: 'string' } };
    for (let level = 6; level >= 0; level--) {
      defs[`D${level}`] = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { $ref: `#/$defs/D${level + 1}` }])) };
    }
    const started = Date.now();
    expect(() => cleanParameterSchema({ type: 'object', properties: { x: { $ref: '#/$defs/D0' } }, $defs: defs })).toThrow(SchemaTooLargeError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a wide schema without $refs past the cap is refused too; one just under it is kept', () => {
    const wide = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, { type: 'string' }])) });
    expect(() => cleanParameterSchema(wide(3000))).toThrow(/larger than 65536 bytes/);
    expect(JSON.stringify(cleanParameterSchema(wide(1000))).length).toBeLessThan(MAX_CLEANED_SCHEMA_BYTES);
  });

  it('the message speaks of inlined $refs only for a schema that has some', () => {
    const wide = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`field_${i}`, { type: 'string' }])) });
    expect(() => cleanParameterSchema(wide(20_000))).toThrow(/^the schema is larger than 65536 bytes, the most a tool's parameters may take in every request \(over 20000 schema nodes\)$/);
    expect(() => cleanParameterSchema(wide(3000))).toThrow(/^the schema is larger than 65536 bytes.*\(\d+ bytes\)$/);
    const viaRef = { type: 'object', properties: { x: { $ref: '#/$defs/wide' } }, $defs: { wide: wide(3000) } };
    expect(() => cleanParameterSchema(viaRef)).toThrow(/^with its \$refs inlined the schema is larger than 65536 bytes/);
  });
});

describe('ToolNameAllocator', () => {
  const none = () => false;

  it.each([
    ['fs', 'read_file', 'fs__read_file'],
    ['my.server', 'get/weather now', 'my_server__get_weather_now'],
    ['1password', 'item-get', '_1password__item-get'],
  ])('%s + %s -> %s', (alias, tool, expected) => {
    expect(new ToolNameAllocator(none).allocate(alias, tool)).toBe(expected);
  });

  it('names longer than 64 characters are cut and made unique with a hash of the original', () => {
    const names = new ToolNameAllocator(none);
    const a = names.allocate('server', 'x'.repeat(80) + 'a');
    const b = names.allocate('server', 'x'.repeat(80) + 'b');
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
  });

  it('two tools that sanitise alike get distinct names, the same in every run', () => {
    const run = () => {
      const names = new ToolNameAllocator(none);
      return [names.allocate('s', 'get.item'), names.allocate('s', 'get/item')];
    };
    const [first, second] = run();
    expect(first).toBe('s__get_item');
    expect(second).toMatch(/^s__get_item_[0-9a-f]{8}$/);
    expect(run()).toEqual([first, second]);
  });

  it('never takes a reserved name', () => {
    const names = new ToolNameAllocator((n) => n === 'a__b');
    expect(names.allocate('a', 'b')).toMatch(/^a__b_[0-9a-f]{8}$/);
  });

  it('sanitizeName keeps only what every provider accepts', () => {
    expect(sanitizeName('héllo wörld!')).toBe('h_llo_w_rld_');
  });
});

describe('mapMcpContent', () => {
  const PNG = 'iVBORw0KGgo=';

  it('a block that breaks the schema is named, and the blocks around it are kept', () => {
    const mapped = mapMcpContent([
      { type: 'text', text: 'kept' },
      null,
      'loose text',
      { type: 'resource', resource: { text: 'no uri' } },
      { type: 'audio', data: 'AAAA' },
      { type: 'image', mimeType: 'image/png' },
    ] as never);
    expect(String(mapped.llmContent).split('\n')).toEqual([
      'kept',
      '[unsupported MCP content null omitted]',
      '[unsupported MCP content a bare string omitted]',
      '[unsupported MCP content resource without a uri omitted]',
      '[unsupported MCP content audio without its data and type omitted]',
      expect.stringMatching(/^\[image image\/png, 0 B, omitted: its bytes are not PNG, JPEG, GIF or WebP/),
    ]);
  });

  it('all-text content becomes one string', () => {
    const mapped = mapMcpContent([
      { type: 'text', text: 'one' },
      { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'two' } },
      { type: 'resource_link', uri: 'file:///b.md', name: 'b.md', mimeType: 'text/markdown' },
    ]);
    expect(mapped.llmContent).toBe('one\ntwo\nResource link: b.md <file:///b.md> (text/markdown)');
  });

  it('images, audio and binary resources become inlineData; other blobs a note', () => {
    const mapped = mapMcpContent([
      { type: 'text', text: 'look:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: 'JVBE' } },
      { type: 'resource', resource: { uri: 'file:///r.bin', mimeType: 'application/zip', blob: 'UEsD' } },
    ]);
    expect(mapped.llmContent).toEqual([
      { text: 'look:' },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { inlineData: { mimeType: 'audio/wav', data: 'AAAA' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
      { text: '[resource file:///r.bin: application/zip, 3 B] binary content omitted' },
    ]);
    expect(mapped.display).toContain('[image: image/png, 8 B]');
    expect(mapped.display).not.toContain(PNG);
  });

  it('a blob resource of a text type is the text it holds; a mislabelled binary one stays a note', () => {
    const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
    const mapped = mapMcpContent([
      { type: 'resource', resource: { uri: 'demo://resource/dynamic/blob/2', mimeType: 'text/plain', blob: b64('Resource 2: plaintext, café') } },
      { type: 'resource', resource: { uri: 'file:///c.json', mimeType: 'application/json; charset=utf-8', blob: b64('{"ok":true}') } },
      { type: 'resource', resource: { uri: 'file:///x.txt', mimeType: 'text/plain', blob: b64(Buffer.from([0xff, 0xfe, 0x00])) } },
    ]);
    expect(mapped.llmContent).toBe('Resource 2: plaintext, café\n{"ok":true}\n[resource file:///x.txt: text/plain, 3 B] binary content omitted');
    expect(mapped.display).toContain('Resource demo://resource/dynamic/blob/2:\nResource 2: plaintext, café');
  });

  it('structured content stands in when there is no content', () => {
    expect(mapMcpContent([], { temperature: 21 }).llmContent).toBe('{\n  "temperature": 21\n}');
  });
});
