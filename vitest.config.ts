import { defineConfig } from 'vitest/config';

// Both stores by default: PostgreSQL at the local default unless TEST_DATABASE_URL names another;
// TEST_DATABASE_URL=none tests SQLite only (the PostgreSQL cases then show as skipped). The same
// default is in scripts/test-prerequisites.sh, which makes sure it answers.
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
if (process.env.TEST_DATABASE_URL === 'none') delete process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/test/**/*.test.ts'],
    // Generous: several tests start real service processes, which on a loaded two-core machine take a while.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one file to the next: loading the whole service
    // anew for each of a hundred files was about a quarter of the suite's CPU. No file changes what the
    // service's modules hold, and each starts its own services and databases.
    isolate: false,
    // Most test files wait on real processes, browsers, brokers and timers rather than compute:
    // three at once on two cores. The suite on both stores takes 7 to 10 minutes, most of it in
    // browser journeys and process tests that wait on real time.
    maxWorkers: 3,
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/service-build.ts', 'test/e2e/dashboard-build.ts'],
  },
});
