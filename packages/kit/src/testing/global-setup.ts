// Vitest global setup: one real PostgreSQL, MariaDB and Redis for the whole run, handed to tests through
// `inject('services')`, and stopped when the run ends (also when tests fail).
import type { TestProject } from 'vitest/node';
import { type RunningServer, startMariadb, startPostgres, startRedis } from './servers.js';

export interface TestServices {
  postgresUrl: string;
  mariadbUrl: string;
  redisUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: TestServices;
  }
}

export default async function setup(project: TestProject) {
  const started: RunningServer[] = [];
  const stopAll = async () => {
    await Promise.allSettled(started.map((s) => s.stop()));
  };
  const track = <T extends RunningServer>(server: T): T => {
    started.push(server);
    return server;
  };
  try {
    const [pgServer, mariadb, redis] = await Promise.all([
      startPostgres().then(track),
      startMariadb().then(track),
      startRedis().then(track),
    ]);
    project.provide('services', { postgresUrl: pgServer.url, mariadbUrl: mariadb.url, redisUrl: redis.url });
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
