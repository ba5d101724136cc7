import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ManagedDatasources } from '../../src/datasources/registry.js';

const open: ManagedDatasources[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.close();
});

function memoryLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => lines.push({ level, obj, msg });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const one = (id: string, extra = '') => `datasources:\n  - { id: ${id}, type: postgres, host: h${extra} }\n`;

async function registry(text: string, options: Parameters<typeof ManagedDatasources.open>[1] = {}) {
  const dir = tempDir('portal-ds-');
  const file = join(dir, 'datasources.yaml');
  writeFileSync(file, text);
  const r = await ManagedDatasources.open(file, { debounceMs: 20, ...options });
  open.push(r);
  return { r, file, dir };
}

describe('managed datasource registry', () => {
  it('has no datasources without PORTAL_DATASOURCES', async () => {
    const r = await ManagedDatasources.open(undefined);
    expect(r.all()).toEqual([]);
    expect(r.getManaged('x')).toBeUndefined();
    expect(r.isManaged('x')).toBe(false);
  });

  it('refuses to start on a missing or invalid file, listing every problem under the variable', async () => {
    await expect(ManagedDatasources.open(join(tempDir(), 'nope.yaml'))).rejects.toThrow(
      /PORTAL_DATASOURCES: cannot read .*nope\.yaml \(ENOENT\)/,
    );
    const dir = tempDir();
    const bad = join(dir, 'bad.yaml');
    writeFileSync(
      bad,
      'datasources:\n  - { id: a, type: nosuch, host: h, policy: { approvalsRequired: 5 } }\n',
    );
    const err = await ManagedDatasources.open(bad).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.problems).toEqual([
      'PORTAL_DATASOURCES: datasource "a": type must be one of postgres, mysql, sqlite, libsql, duckdb, mssql, oracle, mongodb, redis, leveldb, couchbase, clickhouse, druid, trino, athena, elasticsearch, opensearch, cassandra (got "nosuch")',
      'PORTAL_DATASOURCES: datasource "a": policy.approvalsRequired must be 1 or 2 (got 5)',
    ]);
    writeFileSync(bad, 'datasources: [ {');
    await expect(ManagedDatasources.open(bad)).rejects.toThrow(
      /PORTAL_DATASOURCES: .*bad\.yaml is not valid YAML/,
    );
  });

  it('looks datasources up by id and by role, and keeps an unavailable one apart with a logged reason', async () => {
    const { lines, log } = memoryLog();
    const { r } = await registry(
      `datasources:
  - { id: users-db, type: mysql, host: h, roles: [user] }
  - { id: both, type: redis, host: h, roles: [admin, user], password: "\${NOT_SET_ANYWHERE}" }
  - { id: admins-only, type: postgres, host: h }
`,
      { env: {}, log, watch: false },
    );
    expect(r.getManaged('users-db')).toMatchObject({
      id: 'users-db',
      type: 'mysql',
      connection: { host: 'h' },
    });
    expect(r.getManaged('both')).toBeUndefined();
    expect(r.isManaged('both')).toBe(true);
    expect(r.resolve('both')).toEqual({
      available: false,
      datasource: {
        id: 'both',
        name: 'both',
        type: 'redis',
        roles: ['admin', 'user'],
        reason: 'environment variable NOT_SET_ANYWHERE not set (used in password)',
      },
    });
    expect(lines).toContainEqual({
      level: 'warn',
      obj: { datasource: 'both', reason: 'environment variable NOT_SET_ANYWHERE not set (used in password)' },
      msg: 'managed datasource "both" is unavailable: environment variable NOT_SET_ANYWHERE not set (used in password)',
    });
    expect(r.visibleTo('user').map((e) => e.datasource.id)).toEqual(['users-db', 'both']);
    expect(r.visibleTo('admin').map((e) => e.datasource.id)).toEqual(['both', 'admins-only']);
  });

  it('re-reads the file when it changes, keeps the last good set on a bad edit, and sees replaced files', async () => {
    const { lines, log } = memoryLog();
    const { r, file, dir } = await registry(one('first'), { log });
    const changes: number[] = [];
    r.onChange(() => changes.push(r.version));
    const v0 = r.version;

    writeFileSync(file, one('second'));
    await waitFor(async () => r.getManaged('second'), { what: 'the edited file to take effect' });
    expect(r.getManaged('first')).toBeUndefined();
    expect(r.version).toBeGreaterThan(v0);

    writeFileSync(file, one('third', ', policy: { maxRows: -1 }'));
    await waitFor(async () => r.lastErrors.length > 0, { what: 'the bad edit to be refused' });
    expect(r.lastErrors).toEqual([
      'datasource "third": policy.maxRows must be an integer between 1 and 9007199254740991 (got -1)',
    ]);
    expect(r.getManaged('second')).toBeDefined();
    expect(r.getManaged('third')).toBeUndefined();
    expect(
      lines.some((l) => l.level === 'error' && /previous managed datasources stay in force/.test(l.msg)),
    ).toBe(true);

    // Editors and config-map mounts replace the file instead of writing into it.
    const tmp = join(dir, '.datasources.yaml.tmp');
    writeFileSync(tmp, one('fourth'));
    renameSync(tmp, file);
    await waitFor(async () => r.getManaged('fourth'), { what: 'the replaced file to take effect' });
    expect(r.lastErrors).toEqual([]);
    expect(r.getManaged('second')).toBeUndefined();
    expect(changes.length).toBeGreaterThanOrEqual(2);
  });

  it('reload() re-reads on demand and ignores an unchanged file', async () => {
    const { r, file } = await registry(one('a'), { watch: false });
    const v = r.version;
    expect(await r.reload()).toBe(true);
    expect(r.version).toBe(v);
    writeFileSync(file, one('b'));
    expect(await r.reload()).toBe(true);
    expect(r.version).toBe(v + 1);
    expect(r.getManaged('b')).toBeDefined();
  });
});
