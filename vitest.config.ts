import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/test/**/*.test.ts'],
    // Generous: several tests start real service processes, which on a loaded two-core machine take a while.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    // Most test files wait on real processes, browsers, brokers and timers rather than compute:
    // three at once on two cores take the suite from about 14 to about 7.5 minutes.
    maxWorkers: 3,
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/service-build.ts', 'test/e2e/dashboard-build.ts'],
  },
});
