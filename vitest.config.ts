import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e tests spawn the built CLI and real processes; two cores do not gain from more workers.
    maxWorkers: 2,
    // Test files share a worker's module cache: the sources are imported once per worker, not once
    // per file (halved the suite's CPU time). Tests use fakes, not module mocks, and a file that
    // changes process-wide state (cwd, env, signal handlers) restores it, so files stay independent.
    isolate: false,
  },
});
