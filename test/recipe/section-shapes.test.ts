// A recipe section written in the shape another tool (or a guess) gives it: `checks: [npm test]`
// as goose's and CI files list commands, `context: [CLAUDE.md]` as Gemini CLI's contextFileName
// lists names, `tools: ls, grep`, `mcp_servers:` as goose's list of extensions, `output:
// {json_schema: …}` as OpenAI's response_format. validate said only "must be a map, not a list" or
// "unknown key": what the section should hold was left to the README. Each now says the shape that
// does the job, with the user's own values, at the place.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

describe('validate on a section of the wrong shape', () => {
  it('says the shape that does the job, with the values given', async () => {
    const dir = tempDir('unattended-section-shapes-');
    const cases: Array<[string, string]> = [
      ['checks: ["npm test", "npm run lint"]', "4:9: 'checks' must be a map, not a list: the commands go under it, `checks: {commands: [\"npm test\", \"npm run lint\"]}`"],
      ['context: [AGENTS.md, CLAUDE.md]', "4:10: 'context' must be true or false or a map, not a list: name the files under it, `context: {files: [\"AGENTS.md\", \"CLAUDE.md\"]}`"],
      ['tools: ls, grep', "4:8: 'tools' must be a list, not the string \"ls, grep\": write a list, `tools: [ls, grep]`"],
      ['mcp_servers: [{command: node}]', "4:14: 'mcp_servers' must be a map, not a list: a map from a name to each server"],
      ['output: {json_schema: {type: object}}', "4:10: unknown key 'json_schema' in output (the answer's JSON Schema is `output: {schema: {...}}`)"],
      // Claude Code's settings.json sets variables in `env`; here env names the run's own that tools see.
      ['env: {NODE_ENV: test}', "4:7: unknown key 'NODE_ENV' in env (env names variables of the run's own environment the tools may see, `env: {pass: [NODE_ENV]}`; a recipe sets no values: set NODE_ENV where the run starts)"],
      ['env: {pas: [HOME]}', "4:7: unknown key 'pas' in env (did you mean 'pass'?)"],
      // Gemini CLI's settings.json: its tools block, its model block, its coreTools, yolo and contextFileName.
      ['tools: {core: [read_file, grep], exclude: [shell]}', "4:8: 'tools' must be a list, not a map: Gemini CLI's tools block; here `tools: [read_file, grep]` lists the tools offered (its core)"],
      ['model: {name: gemini-2.5-pro}', "4:8: 'model' must be a string, not a map: write the model's name, `model: gemini-2.5-pro`"],
      ['coreTools: [ReadFileTool]', "4:1: unknown key 'coreTools' (the tools the model gets are `tools: [...]`)"],
      ['yolo: true', "4:1: unknown key 'yolo' (calls run without asking under `confirmation: {mode: auto-approve}`)"],
      ['contextFileName: GEMINI.md', "4:1: unknown key 'contextFileName' (context files are `context: {files: [GEMINI.md]}`)"],
      ['autoAccept: true', "4:1: unknown key 'autoAccept' (read-only tools never ask here"],
    ];
    for (const [i, [section, message]] of cases.entries()) {
      const file = path.join(dir, `r${i}.yaml`);
      fs.writeFileSync(file, `version: 1\nprompt: hi\nconfirmation: {mode: deny}\n${section}\n`);
      const r = await cli(['validate', file], { cwd: dir });
      expect({ section, code: r.code, out: r.stdout + r.stderr }).toEqual({ section, code: 52, out: expect.stringContaining(`r${i}.yaml:${message}`) });
    }
  });
});

describe("validate on a peer's approval or sandbox mode", () => {
  // --approval yolo and --sandbox workspace-write named what does the same here; the same values in
  // a recipe got only the list of choices.
  it('names what does the same here, as the flags do, in the recipe\'s terms', async () => {
    const dir = tempDir('unattended-peer-modes-');
    const cases: Array<[string, string]> = [
      ['confirmation: {mode: yolo}', "3:22: 'confirmation.mode' must be one of auto-approve, deny, allowlist (got \"yolo\"): here that is `mode: auto-approve`"],
      ['confirmation: {mode: on-request}', "3:22: 'confirmation.mode' must be one of auto-approve, deny, allowlist (got \"on-request\"): that mode asks the person at the keyboard, and nobody is here: `mode: allowlist` approves what the allow rules name"],
      ['confirmation: {mode: acceptEdits}', '`mode: allowlist` with `allow: [edit, write_file]`'],
      ['confirmation: yolo', "3:15: 'confirmation' must be a map, not the string \"yolo\": a map, `confirmation: {mode: ...}`; for \"yolo\", here that is `mode: auto-approve`"],
      ['confirmation: {mode: deny}\nsandbox: {mode: workspace-write}', "4:17: 'sandbox.mode' must be one of auto, required, off (got \"workspace-write\"): Codex's sandbox mode; here the sandbox lets tools write the workspace alone: `mode: auto`"],
    ];
    for (const [i, [section, message]] of cases.entries()) {
      const file = path.join(dir, `m${i}.yaml`);
      fs.writeFileSync(file, `version: 1\nprompt: hi\n${section}\n`);
      const r = await cli(['validate', file], { cwd: dir });
      expect({ section, code: r.code, out: r.stdout + r.stderr }).toEqual({ section, code: 52, out: expect.stringContaining(message) });
    }
  });
});
