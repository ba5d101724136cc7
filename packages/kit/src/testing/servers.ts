// Real PostgreSQL, MariaDB, Redis and ClickHouse servers for tests: each on a free loopback port in its own temporary
// directory, stopped (and its directory removed) by the returned `stop`. As root, PostgreSQL runs as the
// `postgres` user. A missing server binary is an error that says which Debian package to install.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection as createMysqlConnection } from 'mysql2/promise';
import pg from 'pg';
import { freePort, waitFor } from '../net.js';
import { findBinary, postgresBinDirs, runAsUser, runSync, type Started, startProcess } from './processes.js';

export interface RunningServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export class MissingPrerequisiteError extends Error {
  override name = 'MissingPrerequisiteError';
}

function need(name: string, pkg: string, dirs: string[] = []): string {
  const bin = findBinary(name, dirs);
  if (!bin)
    throw new MissingPrerequisiteError(
      `${name} not found: install the Debian package "${pkg}" (apt-get install ${pkg})`,
    );
  return bin;
}

/** Like the others, plus `pause`/`resume` to take the server away and bring it back on the same port. */
export async function startPostgres(): Promise<
  RunningServer & { pause(): Promise<void>; resume(): Promise<void> }
> {
  const dirs = postgresBinDirs();
  const initdb = need('initdb', 'postgresql', dirs);
  const postgres = need('postgres', 'postgresql', dirs.length ? dirs : []);
  const runAs = runAsUser('postgres');
  const dir = mkdtempSync(join(tmpdir(), 'test-pg-'));
  chmodSync(dir, 0o700);
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const data = join(dir, 'data');
  runSync(
    initdb,
    ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'],
    runAs,
  );
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const launch = async () => {
    const proc = startProcess(
      postgres,
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      // SIGINT is PostgreSQL's fast shutdown: it does not wait for idle pooled clients to leave.
      { runAs, stopSignal: 'SIGINT' },
    );
    try {
      await waitFor(
        async () => {
          if (proc.child.exitCode !== null) throw new Error(`postgres exited: ${proc.output()}`);
          const client = new pg.Client({ connectionString: url });
          client.on('error', () => {});
          await client.connect();
          await client.end();
          return true;
        },
        { what: 'PostgreSQL to accept connections', timeoutMs: 60_000 },
      );
    } catch (err) {
      await proc.stop();
      throw err;
    }
    return proc;
  };
  let proc: Started | undefined;
  try {
    proc = await launch();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    async pause() {
      await proc?.stop();
      proc = undefined;
    },
    async resume() {
      proc ??= await launch();
    },
    async stop() {
      await proc?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startMariadb(): Promise<RunningServer> {
  const installDb = need('mariadb-install-db', 'mariadb-server');
  const mariadbd = need('mariadbd', 'mariadb-server');
  const dir = mkdtempSync(join(tmpdir(), 'test-mariadb-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'mysqld.sock');
  const isRoot = process.getuid?.() === 0;
  const userArgs = isRoot ? ['--user=root'] : [];
  runSync(installDb, [
    '--no-defaults',
    `--datadir=${data}`,
    '--auth-root-authentication-method=socket',
    '--skip-test-db',
    ...userArgs,
  ]);
  const port = await freePort();
  const proc = startProcess(mariadbd, [
    '--no-defaults',
    `--datadir=${data}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${socket}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    '--skip-log-bin',
    '--innodb-flush-log-at-trx-commit=0',
    '--innodb-buffer-pool-size=64M',
    '--skip-name-resolve',
    ...userArgs,
  ]);
  const password = 'test-password';
  try {
    await waitFor(
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`mariadbd exited: ${proc.output()}`);
        const conn = await createMysqlConnection({
          socketPath: socket,
          user: isRoot ? 'root' : process.env.USER,
        });
        await conn.query(`CREATE USER IF NOT EXISTS 'test'@'%' IDENTIFIED BY '${password}'`);
        await conn.query(`GRANT ALL PRIVILEGES ON *.* TO 'test'@'%' WITH GRANT OPTION`);
        await conn.end();
        return true;
      },
      { what: 'MariaDB to accept connections', timeoutMs: 60_000 },
    );
  } catch (err) {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `mysql://test:${password}@127.0.0.1:${port}/mysql`,
    port,
    async stop() {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startRedis(): Promise<RunningServer> {
  const redis = need('redis-server', 'redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'test-redis-'));
  const port = await freePort();
  const proc = startProcess(redis, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ]);
  try {
    await waitFor(
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`redis-server exited: ${proc.output()}`);
        const { Redis } = await import('ioredis');
        const client = new Redis({
          port,
          host: '127.0.0.1',
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        client.on('error', () => {});
        try {
          await client.connect();
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      { what: 'Redis to answer PING', timeoutMs: 30_000 },
    );
  } catch (err) {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * ClickHouse (Debian's clickhouse-server, 18.16) with only its HTTP interface, on a free loopback port, from
 * a configuration written into its own directory; user `default` without a password.
 */
export async function startClickhouse(): Promise<RunningServer> {
  const server = need('clickhouse-server', 'clickhouse-server');
  const dir = mkdtempSync(join(tmpdir(), 'test-clickhouse-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub));
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.xml'),
    `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${port}</http_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709</mark_cache_size>
  <uncompressed_cache_size>8589934</uncompressed_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
`,
  );
  writeFileSync(
    join(dir, 'users.xml'),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const proc = startProcess(server, [`--config-file=${join(dir, 'config.xml')}`], { cwd: dir });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`clickhouse-server exited: ${proc.output()}`);
        const res = await fetch(`${url}/?query=${encodeURIComponent('SELECT 1')}`);
        return res.ok && (await res.text()).trim() === '1';
      },
      { what: 'ClickHouse to answer over HTTP', timeoutMs: 60_000 },
    );
  } catch (err) {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    async stop() {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
