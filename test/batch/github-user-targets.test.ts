// `batch --org NAME` for a user account, not an organisation: GitHub's /users/NAME/repos lists
// public repositories only, even for the account the token is, so a fleet of one's own private
// repositories came out partial (or 'GitHub lists no repository') without a word.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listGitHubTargets } from '../../src/batch/github-targets.js';
import { startFakeGitHub, type FakeGitHub } from '../helpers/fake-github.js';

const TOKEN = 'ghp_user_fleet_token_000000000000000';
let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub({
    token: TOKEN,
    login: 'Alice',
    pageSize: 1,
    repos: [
      { owner: 'alice', name: 'notes', user: true },
      { owner: 'alice', name: 'secret-service', user: true, private: true },
      { owner: 'bob', name: 'tools', user: true },
      { owner: 'bob', name: 'diary', user: true, private: true },
    ],
  });
});
afterAll(() => github.close());

const env = () => ({ GITHUB_TOKEN: TOKEN, GITHUB_API_URL: github.url });
const query = (org: string) => ({ org, topics: [], search: null });

it("the token's own account is listed with its private repositories", async () => {
  expect(await listGitHubTargets(query('alice'), env())).toEqual(['https://github.example/alice/notes.git', 'https://github.example/alice/secret-service.git']);
});

it("another user's account has what GitHub shows of it: its public repositories", async () => {
  expect(await listGitHubTargets(query('bob'), env())).toEqual(['https://github.example/bob/tools.git']);
});
