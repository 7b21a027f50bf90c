// The runner's own outputs (.unattended/: transcripts, reports, workspace copies of earlier runs)
// are not project content: searches and listings pass over them like .git.
import { afterAll, describe, expect, it } from 'vitest';
import { call, cleanupAll, makeWorkspace, text } from './helpers.js';

afterAll(cleanupAll);

const ws = makeWorkspace({
  'src/a.ts': 'export const secretPlan = 1;\n',
  '.unattended/runs/r1/transcript.jsonl': '{"type":"tool_result","llm_content":"secretPlan"}\n',
  '.unattended/runs/r1/workspace/src/a.ts': 'export const secretPlan = 0;\n',
});

describe('.unattended is skipped', () => {
  it('by grep', async () => {
    expect(text(await call(ws.tool('grep'), { pattern: 'secretPlan' }))).toBe('src/a.ts:1: export const secretPlan = 1;');
  });

  it('by glob', async () => {
    expect(text(await call(ws.tool('glob'), { pattern: '**/a.ts' }))).toBe('src/a.ts');
  });
});
