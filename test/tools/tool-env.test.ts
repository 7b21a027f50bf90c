import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { absoluteSearchPath, shellEnvironment, toolEnvironment } from '../../src/tools/tool-env.js';
import { ALWAYS_SAFE } from '../../src/util/git-safe-config.js';

const parent: NodeJS.ProcessEnv = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  LANG: 'C.UTF-8',
  TZ: 'UTC',
  CI: 'true',
  SHELL: '/bin/zsh',
  AWS_SECRET_ACCESS_KEY: 'aws',
  GEMINI_API_KEY: 'g',
  GOOGLE_API_KEY: 'g2',
  OPENAI_API_KEY: 'o',
  ANTHROPIC_API_KEY: 'a',
  DASHSCOPE_API_KEY: 'd',
  AZURE_OPENAI_API_KEY: 'az',
  GITHUB_TOKEN: 'ghp_x',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'u',
  LD_PRELOAD: '/evil.so',
  DYLD_INSERT_LIBRARIES: '/evil.dylib',
  NODE_OPTIONS: '--require /evil.js',
  BASH_ENV: '/evil.sh',
  ENV: '/evil.sh',
  GLOBIGNORE: '-*',
  CDPATH: '/elsewhere',
  GIT_DIR: '/elsewhere/.git',
  GIT_SSH_COMMAND: 'evil',
  GIT_CONFIG_GLOBAL: '/evil/gitconfig',
  GIT_CONFIG_COUNT: '1',
  GIT_EXTERNAL_DIFF: 'evil',
  npm_config_script_shell: '/evil.sh',
  MY_SETTING: 'ok',
};

describe('toolEnvironment', () => {
  it('passes only the base allowlist by default', () => {
    expect(toolEnvironment(parent, [])).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', TZ: 'UTC', CI: 'true' });
  });

  it('adds names the recipe passes', () => {
    expect(toolEnvironment(parent, ['MY_SETTING', 'UNSET_ONE'])).toMatchObject({ MY_SETTING: 'ok' });
    expect(toolEnvironment(parent, ['UNSET_ONE'])).not.toHaveProperty('UNSET_ONE');
  });

  it('passes GITHUB_TOKEN only when listed explicitly', () => {
    expect(toolEnvironment(parent, [])).not.toHaveProperty('GITHUB_TOKEN');
    expect(toolEnvironment(parent, ['GITHUB_TOKEN'])).toMatchObject({ GITHUB_TOKEN: 'ghp_x' });
  });

  it.each([
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'DASHSCOPE_API_KEY',
    'AZURE_OPENAI_API_KEY',
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
    'ACTIONS_ID_TOKEN_REQUEST_URL',
    'LD_PRELOAD',
    'DYLD_INSERT_LIBRARIES',
    'NODE_OPTIONS',
    'BASH_ENV',
    'ENV',
    // bash would read the line otherwise than the policy did: the names a glob stands for, where cd leads.
    'GLOBIGNORE',
    'CDPATH',
    'GIT_DIR',
    'GIT_SSH_COMMAND',
    'GIT_CONFIG_GLOBAL',
    'GIT_CONFIG_COUNT',
    'GIT_EXTERNAL_DIFF',
    'npm_config_script_shell',
  ])('never passes %s, even when the recipe lists it', (name) => {
    expect(toolEnvironment(parent, [name])).not.toHaveProperty(name);
  });
});

describe('shellEnvironment', () => {
  it('adds the unattended settings, drops inherited git config variables and neutralises hooks and fsmonitor', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'unattended-env-')));
    try {
      const env = shellEnvironment({ PATH: '/usr/bin', GIT_CONFIG_KEY_0: 'core.pager', GIT_CONFIG_VALUE_0: 'evil' }, dir);
      expect(env).toMatchObject({ PATH: '/usr/bin', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' });
      const pairs = Array.from({ length: Number(env.GIT_CONFIG_COUNT) }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]);
      expect(pairs).toEqual(ALWAYS_SAFE.map(([k, v]) => [k, v]));
      expect(pairs).toContainEqual(['core.fsmonitor', 'false']);
      expect(pairs).toContainEqual(['core.hooksPath', '/dev/null']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PATH for tools', () => {
  it('keeps only absolute entries, and never leaves PATH empty (an empty PATH means the current directory)', () => {
    expect(toolEnvironment({ PATH: '.:/usr/bin::node_modules/.bin:/bin:' }, []).PATH).toBe('/usr/bin:/bin');
    expect(absoluteSearchPath('.:/usr/bin::node_modules/.bin').dropped).toEqual(['.', '(empty)', 'node_modules/.bin']);
    expect(toolEnvironment({ PATH: '.:bin' }, []).PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(toolEnvironment({ PATH: '/opt/x/bin:/usr/bin' }, []).PATH).toBe('/opt/x/bin:/usr/bin');
  });
});
