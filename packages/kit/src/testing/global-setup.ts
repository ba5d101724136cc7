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

/** The servers of this run, started by the first project's setup and stopped by the last one's teardown. */
interface SharedServices {
  ready: Promise<{ services: TestServices; stopAll: () => Promise<void> }>;
  users: number;
}
const SHARED = Symbol.for('app.testing.services');

// Vitest calls a global setup once per project (vitest.config.ts has two); every project's setup runs in the
// main process, so the first starts the servers and the others share them through the global object.
export default async function setup(project: TestProject) {
  const holder = globalThis as { [SHARED]?: SharedServices };
  let shared = holder[SHARED];
  if (!shared) {
    shared = { ready: startAll(), users: 0 };
    holder[SHARED] = shared;
  }
  shared.users += 1;
  const { services, stopAll } = await shared.ready;
  project.provide('services', services);
  const mine = shared;
  return async () => {
    mine.users -= 1;
    if (mine.users > 0) return;
    delete holder[SHARED];
    await stopAll();
  };
}

async function startAll(): Promise<{ services: TestServices; stopAll: () => Promise<void> }> {
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
    const services = {
      postgresUrl: pgServer.url,
      mariadbUrl: mariadb.url,
      redisUrl: redis.url,
      clickhouseUrl: clickhouse.url,
    };
    return { services, stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
