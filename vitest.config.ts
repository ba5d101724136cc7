import { defineConfig } from 'vitest/config';

// One configuration for every package. Real PostgreSQL, MariaDB, Redis and ClickHouse are started once per run
// by the global setup and handed to tests through `inject('services')`; every test file makes its own
// databases and temporary folders on them, so files can run side by side.
//
// Two groups, one after the other. Most files only import modules and talk to the shared servers: they run
// two at a time, which roughly halves their share of a run on a 2-core machine (module loading is most of
// their time). The files that start whole servers with agent processes, podman containers or a browser run
// one at a time afterwards, so each has the machine to itself, as it had when every file ran alone.
const SERIAL = [
  'packages/*/test/e2e/**/*.test.ts',
  'packages/*/test/ui/**/*.test.ts',
  'packages/ci-agent/test/executor/**/*.test.ts',
  'scripts/**/*.test.ts',
];

export default defineConfig({
  test: {
    globalSetup: ['packages/kit/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'side-by-side',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: [...SERIAL, '**/node_modules/**'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'one-at-a-time',
          include: SERIAL,
          exclude: ['**/node_modules/**'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
