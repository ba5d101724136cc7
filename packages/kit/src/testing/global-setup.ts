// Vitest global setup: one real PostgreSQL, MariaDB, Redis and ClickHouse for the whole run, handed to tests through
// `inject('services')`, and stopped when the run ends (also when tests fail).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type RunningServer, startClickhouse, startMariadb, startPostgres, startRedis } from './servers.js';
import { TEST_TMP_ROOT_ENV } from './temp.js';

export interface TestServices {
  postgresUrl: string;
  mariadbUrl: string;
  redisUrl: string;
  /** ClickHouse's HTTP interface (http://127.0.0.1:<port>), user `default` without a password. */
  clickhouseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: TestServices;
  }
}

export default async function setup(project: TestProject) {
  // Every tempDir() of this run goes under one root, removed when the run ends.
  const tmpRoot = mkdtempSync(join(tmpdir(), 'vitest-run-'));
  process.env[TEST_TMP_ROOT_ENV] = tmpRoot;
  const started: RunningServer[] = [];
  const stopAll = async () => {
    await Promise.allSettled(started.map((s) => s.stop()));
    rmSync(tmpRoot, { recursive: true, force: true });
  };
  const track = <T extends RunningServer>(server: T): T => {
    started.push(server);
    return server;
  };
  try {
    const [pgServer, mariadb, redis, clickhouse] = await Promise.all([
      startPostgres().then(track),
      startMariadb().then(track),
      startRedis().then(track),
      startClickhouse().then(track),
    ]);
    project.provide('services', {
      postgresUrl: pgServer.url,
      mariadbUrl: mariadb.url,
      redisUrl: redis.url,
      clickhouseUrl: clickhouse.url,
    });
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
