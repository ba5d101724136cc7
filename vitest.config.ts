import { defineConfig } from 'vitest/config';

// One configuration for every package. Real PostgreSQL, MariaDB and Redis are started once per run by the
// global setup and handed to tests through `inject('services')`.
//
// Two projects, run one file at a time on the CI machine's two cores (files side by side were slower: the
// work is CPU-bound). Most files share one module cache (`isolate: false`): loading the server code afresh for
// each file was about 390 s of a 32-minute run. Files that stub timers, spy on modules or change process.env
// keep a fresh module graph each, and so do the agent's and the containers' tests. The browser and end-to-end
// tests share it: each stops its agents, browser and servers in afterAll and none changes the process; all 129
// browser tests and all 39 end-to-end tests passed one file after another in one isolate:false worker, and
// loading the servers' code again for each of those 44 files cost about 2 s a file on the CI machine (154 s
// of import for the 65 isolated files of the last run). A file that fails may leave an agent process running
// until the worker exits, which only slows the rest of that run.
const ISOLATED = [
  'packages/ci-agent/**/*.test.ts',
  'scripts/**/*.test.ts',
  'packages/ci-server/test/dispatch/log-shipper.test.ts',
  'packages/kit/test/spool-file.test.ts',
  'packages/portal-server/test/governance/adversarial-db.test.ts',
  'packages/portal-server/test/governance/corpus-db.test.ts',
  'packages/portal-server/test/query/export.test.ts',
  'packages/portal-server/test/datasources/managed-route.test.ts',
];
const ALL = ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'scripts/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['packages/kit/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'shared', include: ALL, exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
