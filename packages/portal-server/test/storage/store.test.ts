import { statSync } from 'node:fs';
import { ConfigError } from '@app/kit';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openPortalStore, type PortalStore } from '../../src/storage/store.js';
import { JWT, openStore, type StoreKind, storageSettings } from './helpers.js';

const opened: PortalStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function fresh(kind: StoreKind, options = {}) {
  const r = await openStore(kind, options);
  opened.push(r.store);
  return r;
}

describe('storage provider selection', () => {
  it('local means no server storage', async () => {
    expect(
      await openPortalStore(await storageSettings('sqlite', { storageProvider: 'local' })),
    ).toBeUndefined();
  });

  it('postgres without STORAGE_POSTGRES_URL is a configuration error naming the variable', async () => {
    const settings = await storageSettings('sqlite', { storageProvider: 'postgres' });
    await expect(openPortalStore(settings, { jwtSecret: JWT })).rejects.toThrow(ConfigError);
    await expect(openPortalStore(settings, { jwtSecret: JWT })).rejects.toThrow(/STORAGE_POSTGRES_URL/);
  });

  it('a malformed STORAGE_ENCRYPTION_KEY is a configuration error naming the variable', async () => {
    const settings = await storageSettings('sqlite', { storageEncryptionKey: 'abc' });
    await expect(openPortalStore(settings)).rejects.toThrow(
      /STORAGE_ENCRYPTION_KEY: expected 64 hexadecimal/,
    );
  });
});

describe.each(['sqlite', 'postgres'] as const)('portal store on %s', (kind) => {
  it('applies the migrations once and opens again without re-applying them', async () => {
    const { store, settings } = await fresh(kind);
    const names = await store.db
      .selectFrom('kysely_migration' as never)
      .select(sql<string>`name`.as('name'))
      .execute();
    expect(names.map((r) => r.name)).toEqual([
      '0001_meta_connections_queries',
      '0002_approvals_service_tokens',
      '0003_audit_jobs',
      '0004_bot_requests',
      '0004_session_state',
      '0005_seed_runs',
      '0006_approval_dry_run',
    ]);
    if (kind === 'sqlite') expect(statSync(settings.storageSqlitePath).mode & 0o777).toBe(0o600);
    await store.close();
    opened.pop();
    const again = await openPortalStore(settings, { jwtSecret: JWT });
    opened.push(again!);
    await again!.ping();
    expect(await again!.connections.list('nobody')).toEqual([]);
  });

  it('refuses to open with a different key than the one the store was written with', async () => {
    const { store, settings } = await fresh(kind);
    await store.close();
    opened.pop();
    await expect(openPortalStore(settings, { jwtSecret: 'k'.repeat(40) })).rejects.toThrow(
      /STORAGE_ENCRYPTION_KEY: this storage was written with a different key/,
    );
    // An explicit key that differs from the derived one is refused the same way.
    await expect(openPortalStore({ ...settings, storageEncryptionKey: 'ab'.repeat(32) })).rejects.toThrow(
      ConfigError,
    );
  });

  it('keeps saved connections per user with credentials sealed at rest', async () => {
    const { store } = await fresh(kind);
    const password = 'hunter2-very-secret';
    const { connection, created } = await store.connections.upsert('alice', {
      id: 'c1',
      name: 'Orders',
      type: 'postgres',
      host: 'db.internal',
      port: 5432,
      user: 'app',
      password,
      connectionString: `postgres://app:${password}@db.internal/orders`,
      ssl: true,
    });
    expect(created).toBe(true);
    expect(connection).toMatchObject({ id: 'c1', name: 'Orders', host: 'db.internal', ssl: true });
    expect(connection.storedSecrets).toEqual(['connectionString', 'password']);
    expect(JSON.stringify(connection)).not.toContain(password);

    // The raw table holds no readable credential.
    const raw = await store.db.selectFrom('saved_connections').selectAll().execute();
    expect(raw).toHaveLength(1);
    expect(JSON.stringify(raw)).not.toContain(password);
    expect(raw[0].sealed).toMatch(/^v1\./);

    expect(await store.connections.getWithSecrets('alice', 'c1')).toMatchObject({ password, user: 'app' });
    expect(await store.connections.get('bob', 'c1')).toBeUndefined();
    expect(await store.connections.list('bob')).toEqual([]);

    // Leaving a credential out keeps it; null removes it.
    const updated = await store.connections.upsert('alice', {
      id: 'c1',
      name: 'Orders (renamed)',
      type: 'postgres',
      host: 'db2.internal',
      connectionString: null,
    });
    expect(updated.created).toBe(false);
    expect(updated.connection.storedSecrets).toEqual(['password']);
    const full = await store.connections.getWithSecrets('alice', 'c1');
    expect(full).toMatchObject({ name: 'Orders (renamed)', host: 'db2.internal', password });
    expect(full).not.toHaveProperty('connectionString');

    // A sealed value moved to another owner's row does not open (it is bound to owner and id).
    await store.connections.upsert('bob', { id: 'c1', name: 'Mine', type: 'postgres', password: 'x' });
    await store.db
      .updateTable('saved_connections')
      .set({ sealed: raw[0].sealed })
      .where('owner', '=', 'bob')
      .execute();
    await expect(store.connections.getWithSecrets('bob', 'c1')).rejects.toThrow(/failed authentication/);

    expect(await store.connections.delete('alice', 'c1')).toBe(true);
    expect(await store.connections.delete('alice', 'c1')).toBe(false);
  });

  it('keeps saved queries and a bounded query history per user', async () => {
    const { store } = await fresh(kind, { historyLimit: 3 });
    const q = await store.queries.create('alice', { name: 'Top', sql: 'select 1', tags: ['a'] });
    await store.queries.create('bob', { name: 'Other', sql: 'select 2' });
    expect(await store.queries.list('alice', { limit: 10, offset: 0 })).toEqual({ queries: [q], total: 1 });
    const changed = await store.queries.update('alice', q.id, {
      name: 'Top 2',
      sql: 'select 2',
      connectionId: 'c1',
    });
    expect(changed).toMatchObject({ name: 'Top 2', connectionId: 'c1', tags: [] });
    expect(await store.queries.update('bob', q.id, { name: 'x', sql: 'y' })).toBeUndefined();
    expect(await store.queries.delete('bob', q.id)).toBe(false);
    expect(await store.queries.delete('alice', q.id)).toBe(true);

    for (let i = 1; i <= 5; i++) {
      await store.history.add('alice', {
        connectionId: 'c1',
        connectionName: 'Orders',
        sql: `select ${i}`,
        status: i === 4 ? 'failure' : 'success',
        rowCount: i,
        durationMs: 2,
        error: i === 4 ? 'boom' : null,
      });
    }
    await store.history.add('bob', {
      connectionId: null,
      connectionName: null,
      sql: 'select b',
      status: 'success',
      rowCount: 1,
      durationMs: 1,
      error: null,
    });
    const page = await store.history.list('alice', { limit: 10, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.entries.map((e) => e.sql)).toEqual(['select 5', 'select 4', 'select 3']);
    expect(page.entries[1]).toMatchObject({ status: 'failure', error: 'boom' });
    expect((await store.history.list('bob', { limit: 10, offset: 0 })).total).toBe(1);
    expect(await store.history.clear('alice')).toBe(3);
  });

  it('keeps approvals with compare-and-set decisions, expiry and the approval window lookup', async () => {
    let clock = Date.parse('2030-01-01T10:00:00.000Z');
    const { store } = await fresh(kind, { now: () => new Date(clock) });
    const a = await store.approvals.create({
      datasourceId: 'prod',
      datasourceName: 'Production',
      requester: 'alice',
      statement: 'DELETE FROM t WHERE id = 1',
      route: '/api/db/query',
      guardrail: 'delete',
      ticket: 'OPS-1',
    });
    expect(a).toMatchObject({
      status: 'pending',
      guardrail: 'delete',
      version: 1,
      requestedAt: '2030-01-01T10:00:00.000Z',
    });
    expect(a).not.toHaveProperty('reviewer');

    // Two reviewers decide from the same read: exactly one wins.
    const [first, second] = await Promise.all([
      store.approvals.update(a.id, 1, {
        status: 'approved',
        reviewer: 'bob',
        reviewedAt: '2030-01-01T10:01:00.000Z',
        windowUntil: '2030-01-01T10:16:00.000Z',
        approvals: [{ reviewer: 'bob', at: '2030-01-01T10:01:00.000Z' }],
      }),
      store.approvals.update(a.id, 1, { status: 'rejected', reviewer: 'carol' }),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const decided = await store.approvals.get(a.id);
    expect(decided?.version).toBe(2);

    if (decided?.status === 'approved') {
      clock = Date.parse('2030-01-01T10:10:00.000Z');
      const open = await store.approvals.findOpenWindow({
        datasourceId: 'prod',
        requester: 'alice',
        statement: 'DELETE FROM t WHERE id = 1',
        route: '/api/db/query',
      });
      expect(open?.id).toBe(a.id);
      expect(
        await store.approvals.findOpenWindow({
          datasourceId: 'prod',
          requester: 'alice',
          statement: 'DELETE FROM t WHERE id = 2',
          route: '/api/db/query',
        }),
      ).toBeUndefined();
      clock = Date.parse('2030-01-01T10:17:00.000Z');
      expect(
        await store.approvals.findOpenWindow({
          datasourceId: 'prod',
          requester: 'alice',
          statement: 'DELETE FROM t WHERE id = 1',
          route: '/api/db/query',
        }),
      ).toBeUndefined();
    }

    clock = Date.parse('2030-01-02T10:00:00.000Z');
    const b = await store.approvals.create({
      datasourceId: 'prod',
      datasourceName: 'Production',
      requester: 'dave',
      statement: 'DROP TABLE x',
      route: '/api/v1/executions',
      approvedBy: [{ reviewer: 'erin', at: '2030-01-02T09:00:00.000Z' }],
    });
    expect(
      await store.approvals.findPending({
        datasourceId: 'prod',
        requester: 'dave',
        statement: 'DROP TABLE x',
      }),
    ).toMatchObject({
      id: b.id,
      approvedBy: [{ reviewer: 'erin', at: '2030-01-02T09:00:00.000Z' }],
    });
    clock = Date.parse('2030-01-02T10:05:00.000Z');
    const c = await store.approvals.create({
      datasourceId: 'other',
      datasourceName: 'Other',
      requester: 'dave',
      statement: 'TRUNCATE y',
      route: '/api/db/query',
    });
    const list = await store.approvals.list({ limit: 10 });
    expect(list.map((x) => x.id)).toEqual([b.id, c.id, a.id]);
    expect((await store.approvals.list({ limit: 10, datasourceIds: ['other'] })).map((x) => x.id)).toEqual([
      c.id,
    ]);
    expect(await store.approvals.list({ limit: 10, datasourceIds: [] })).toEqual([]);
    expect((await store.approvals.list({ limit: 10, requester: 'alice' })).map((x) => x.id)).toEqual([a.id]);

    clock = Date.parse('2030-01-03T10:02:30.000Z');
    expect(await store.approvals.expirePending(24)).toBe(1);
    expect((await store.approvals.get(b.id))?.status).toBe('expired');
    expect((await store.approvals.get(c.id))?.status).toBe('pending');
  });

  it('stores only the hash of a service token', async () => {
    const { store } = await fresh(kind);
    const { token, secret } = await store.serviceTokens.create({
      name: 'chatops',
      role: 'user',
      datasources: ['prod'],
      trustedApprovals: true,
      createdBy: 'admin',
    });
    expect(secret).toMatch(/^pst_[A-Za-z0-9_-]{40,}$/);
    expect(token).toMatchObject({
      name: 'chatops',
      role: 'user',
      groups: [],
      datasources: ['prod'],
      requireApproval: false,
      trustedApprovals: true,
    });
    const raw = await store.db.selectFrom('service_tokens').selectAll().execute();
    expect(JSON.stringify(raw)).not.toContain(secret);
    expect((await store.serviceTokens.findBySecret(secret))?.id).toBe(token.id);
    expect(await store.serviceTokens.findBySecret(`${secret}x`)).toBeUndefined();
    expect(await store.serviceTokens.findBySecret('not-a-token')).toBeUndefined();
    expect((await store.serviceTokens.list()).map((t) => t.id)).toEqual([token.id]);
    expect(await store.serviceTokens.revoke(token.id)).toBe(true);
    expect(await store.serviceTokens.revoke(token.id)).toBe(false);
    expect(await store.serviceTokens.findBySecret(secret)).toBeUndefined();
    expect(await store.serviceTokens.list()).toEqual([]);
  });

  it('pages audit events newest first under filters', async () => {
    const { store } = await fresh(kind);
    for (let i = 0; i < 5; i++) {
      await store.audit.insert({
        type: i % 2 ? 'query_execution' : 'data_export',
        actor: i < 3 ? 'alice' : 'bob',
        connection: 'prod',
        result: i === 4 ? 'failure' : 'success',
        at: `2030-01-01T00:00:0${i}.000Z`,
        ticket: `T-${i}`,
      });
    }
    const all = await store.audit.query({ limit: 2, offset: 1 });
    expect(all.total).toBe(5);
    expect(all.events.map((e) => e.ticket)).toEqual(['T-3', 'T-2']);
    const some = await store.audit.query({
      actor: 'alice',
      from: '2030-01-01T00:00:01.000Z',
      to: '2030-01-01T00:00:02.000Z',
      limit: 10,
      offset: 0,
    });
    expect(some.events.map((e) => e.at)).toEqual(['2030-01-01T00:00:02.000Z', '2030-01-01T00:00:01.000Z']);
    expect((await store.audit.query({ result: 'failure', limit: 10, offset: 0 })).events[0]).toMatchObject({
      ticket: 'T-4',
      actor: 'bob',
    });
  });
});
