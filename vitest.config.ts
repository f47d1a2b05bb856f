import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/test/**/*.test.ts'],
    // Generous: several tests start real service processes, which on a loaded two-core machine take a while.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts', 'test/e2e/dashboard-build.ts'],
  },
});
