import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One more worker than this machine's two cores: a good share of a test's wall time is spent
    // waiting (on a child process, a signal's grace period, a deadline), and a third worker fills it.
    // Measured on the 2-core machine, whole suite, same CPU: 2 workers 77-83 s, 3 workers 58-71 s,
    // 4 workers 66 s; after the later cuts, 3 workers 50-56 s and 4 workers 50-52 s (no better).
    maxWorkers: 3,
    // Test files share a worker's module cache: the sources are imported once per worker, not once
    // per file (halved the suite's CPU time). Tests use fakes, not module mocks, and a file that
    // changes process-wide state (cwd, env, signal handlers) restores it, so files stay independent.
    isolate: false,
    // Transformed modules are kept on disk (node_modules/.vitest-cache, keyed by each file's
    // content and Vitest's config; `vitest --clearCache` empties it): a run after the first does not
    // transform the ~450 TypeScript files again. Measured on three test files in one worker: 9.8-10.0 s
    // of CPU without it, 8.1-8.3 s with a warm cache; the first run costs the same as without.
    experimental: { fsModuleCache: true },
  },
});
