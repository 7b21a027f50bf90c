// A run whose workspace holds the key file google-github-actions/auth writes into
// $GITHUB_WORKSPACE (gha-creds-*.json, named by GOOGLE_APPLICATION_CREDENTIALS), through the built
// CLI under auto-approve: the policy denies the calls that name it, grep and read_many_files leave
// it out, an AGENTS.md import of it is not loaded, and the key is nowhere in the run's record.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, readRun, removeTempDirs, tempDir } from '../helpers/cli.js';

afterAll(removeTempDirs);

const SECRET = 'KEY-SECRET-5f1e2d';

describe('credentials inside the workspace, end to end', () => {
  it('keeps the key file from every file tool and out of the record', async () => {
    const root = tempDir('creds-in-ws-');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    const creds = path.join(ws, 'gha-creds-0a1b2c3d.json');
    fs.writeFileSync(creds, JSON.stringify({ type: 'external_account', credential_source: { headers: { Authorization: `bearer ${SECRET}` } } }));
    fs.writeFileSync(path.join(ws, 'src/app.ts'), 'export const source = "credential_source";\n');
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Read the project notes.\n@gha-creds-0a1b2c3d.json\n');
    const calls = [
      { name: 'read_file', args: { absolute_path: creds } },
      { name: 'grep', args: { pattern: 'credential_source' } },
      { name: 'read_many_files', args: { paths: ['**/*.json', 'src/*.ts'] } },
    ];
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls }, { text: 'Done.' }] }));
    const out = path.join(root, 'run');
    const run = await cli(
      ['run', '--prompt', 'Look around.', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--approval', 'auto-approve'],
      { env: { GOOGLE_APPLICATION_CREDENTIALS: creds } },
    );
    const { report, events } = readRun(out);
    expect(events.at(-1)!.type).toBe('run_end');
    expect(report.denials.map((d: { tool: string }) => d.tool)).toEqual(['read_file']);
    expect(report.denials[0].reason).toContain("read_file would reach credentials: 'gha-creds-0a1b2c3d.json' holds credentials (GOOGLE_APPLICATION_CREDENTIALS names it)");
    const results = events.filter((e) => e.type === 'tool_result');
    const grep = results.find((e) => e.name === 'grep');
    expect(JSON.stringify(grep)).toContain('src/app.ts');
    expect(JSON.stringify(grep)).toContain('credentials, kept from the tools: gha-creds-0a1b2c3d.json');
    expect(JSON.stringify(results.find((e) => e.name === 'read_many_files'))).toContain('credentials, kept from the tools');
    expect(run.stderr + run.stdout).toMatch(/context file gha-creds-0a1b2c3d\.json \(imported by AGENTS\.md\) was not loaded: .*holds credentials/);
    // Nowhere in the transcript, the report or what the CLI printed.
    for (const file of fs.readdirSync(out)) expect(fs.readFileSync(path.join(out, file), 'utf8'), file).not.toContain(SECRET);
    expect(run.stdout + run.stderr).not.toContain(SECRET);

    // `policy check` answers as the run did.
    const recipe = path.join(root, 'recipe.yaml');
    fs.writeFileSync(recipe, 'version: 1\nname: look\nprompt: Look around.\nprovider: gemini\nworkspace: ws\ntools: [read_file, grep]\nconfirmation:\n  mode: auto-approve\n');
    const check = await cli(['policy', 'check', recipe, '--tool', 'read_file', '--args', JSON.stringify({ absolute_path: creds })], { env: { GOOGLE_APPLICATION_CREDENTIALS: creds } });
    expect(check.stdout + check.stderr).toContain('holds credentials (GOOGLE_APPLICATION_CREDENTIALS names it)');
    expect(JSON.parse(check.stdout).decision).toBe('deny');
  }, 60_000);

  // A compare of paths did not see another name of the same file: a hard link elsewhere in the
  // workspace to the key file (or to ~/.aws/credentials, the workspace under the home directory)
  // was read whole by read_file, grep and read_many_files.
  it('keeps a hard link to a credential file from every file tool too', async () => {
    const root = tempDir('creds-in-ws-');
    const home = path.join(root, 'home');
    const ws = path.join(home, 'ws');
    fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
    fs.mkdirSync(path.join(home, '.aws'));
    const creds = path.join(ws, 'gha-creds-0a1b2c3d.json');
    fs.writeFileSync(creds, JSON.stringify({ token: SECRET }));
    fs.writeFileSync(path.join(home, '.aws/credentials'), `[default]\naws_secret_access_key = ${SECRET}-aws\n`);
    fs.linkSync(creds, path.join(ws, 'notes/copy.json'));
    fs.linkSync(path.join(home, '.aws/credentials'), path.join(ws, 'notes/aws.txt'));
    fs.writeFileSync(path.join(ws, 'notes/plain.txt'), 'token: none here\n');
    const calls = [
      { name: 'read_file', args: { absolute_path: path.join(ws, 'notes/copy.json') } },
      { name: 'read_file', args: { absolute_path: path.join(ws, 'notes/aws.txt') } },
      { name: 'grep', args: { pattern: 'token|secret' } },
      { name: 'read_many_files', args: { paths: ['notes/*'] } },
      { name: 'write_file', args: { file_path: path.join(ws, 'notes/aws.txt'), content: 'x' } },
    ];
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls }, { text: 'Done.' }] }));
    const out = path.join(root, 'run');
    await cli(
      ['run', '--prompt', 'Look around.', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--approval', 'auto-approve', '--tools', 'read_file,grep,read_many_files,write_file'],
      { env: { GOOGLE_APPLICATION_CREDENTIALS: creds, HOME: home } },
    );
    const { report, events } = readRun(out);
    expect(events.at(-1)!.type).toBe('run_end');
    expect(report.denials.map((d: { tool: string }) => d.tool)).toEqual(['read_file', 'read_file', 'write_file']);
    expect(report.denials[0].reason).toContain("'notes/copy.json' is another name (a hard link) of 'gha-creds-0a1b2c3d.json', which holds credentials");
    expect(report.denials[1].reason).toContain(`'notes/aws.txt' is another name (a hard link) of '${path.join(home, '.aws/credentials')}'`);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(JSON.stringify(results.find((e) => e.name === 'grep'))).toContain('notes/plain.txt');
    expect(JSON.stringify(results.find((e) => e.name === 'read_many_files'))).toContain('credentials, kept from the tools');
    for (const file of fs.readdirSync(out)) expect(fs.readFileSync(path.join(out, file), 'utf8'), file).not.toContain(SECRET);
    expect(fs.readFileSync(path.join(home, '.aws/credentials'), 'utf8')).toContain(SECRET);
  }, 60_000);

  // A name that is not UTF-8 is written with \xHH as the listings show it, and read_file (and grep)
  // open the file it stands for: that file was not asked whether it is another name of a credential file.
  it('keeps a hard link to a credential file under a name that is not UTF-8, written as the listings show it', async () => {
    const root = tempDir('creds-in-ws-');
    const home = path.join(root, 'home');
    const ws = path.join(home, 'ws');
    fs.mkdirSync(path.join(home, '.aws'), { recursive: true });
    fs.mkdirSync(ws);
    const aws = path.join(home, '.aws/credentials');
    fs.writeFileSync(aws, `[default]\naws_secret_access_key = ${SECRET}-aws\n`);
    fs.linkSync(aws, Buffer.concat([Buffer.from(`${ws}/k`), Buffer.from([0xff]), Buffer.from('.txt')]));
    const calls = [
      { name: 'read_file', args: { absolute_path: `${ws}/k\\xFF.txt` } },
      { name: 'grep', args: { pattern: 'secret', path: 'k\\xFF.txt' } },
    ];
    const script = path.join(root, 'turns.json');
    fs.writeFileSync(script, JSON.stringify({ turns: [{ calls }, { text: 'Done.' }] }));
    const out = path.join(root, 'run');
    await cli(['run', '--prompt', 'Look around.', '--provider', 'scripted', '--script', script, '--workspace', ws, '--out', out, '--approval', 'auto-approve', '--tools', 'read_file,grep'], { env: { HOME: home } });
    const { events } = readRun(out);
    expect(events.at(-1)!.type).toBe('run_end');
    for (const file of fs.readdirSync(out)) expect(fs.readFileSync(path.join(out, file), 'utf8'), file).not.toContain(SECRET);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((e) => JSON.stringify(e))).toEqual([expect.stringContaining('another name (a hard link)'), expect.stringContaining('another name (a hard link)')]);
  }, 60_000);
});
