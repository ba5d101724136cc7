import { defineConfig } from 'vitest/config';

// One configuration for every package. Real PostgreSQL, MariaDB and Redis are started once per run by the
// global setup and handed to tests through `inject('services')`.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['packages/kit/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
