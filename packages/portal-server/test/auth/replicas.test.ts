// Sign-in state shared by replicas: two portal instances on one storage (a SQLite file, a PostgreSQL
// database) honour "an accepted code cannot be reused" and logout across each other; without storage each
// process keeps its own lists. Plus the stored lists on their own: one winner per code under concurrency,
// expiry of old entries.
import { join } from 'node:path';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { openStore } from '../storage/helpers.js';
import { ADMIN, cookieValue, login, portal } from './helpers.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const totp = new TOTP({ secret: Secret.fromBase32(SECRET), algorithm: 'SHA1', digits: 6, period: 30 });

const servers: PortalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function storageEnv(kind: 'sqlite' | 'postgres'): Promise<Record<string, string>> {
  if (kind === 'sqlite') {
    return {
      STORAGE_PROVIDER: 'sqlite',
      STORAGE_SQLITE_PATH: join(tempDir('portal-replicas-'), 'shared.db'),
    };
  }
  return {
    STORAGE_PROVIDER: 'postgres',
    STORAGE_POSTGRES_URL: await createPostgresDatabase(inject('services').postgresUrl),
  };
}

/** Two replicas: separate processes' state (separate app instances and data dirs), one storage. */
async function replicas(env: Record<string, string>): Promise<[PortalServer, PortalServer]> {
  const a = await portal({ ADMIN_TOTP_SECRET: SECRET, ...env });
  servers.push(a);
  const b = await portal({ ADMIN_TOTP_SECRET: SECRET, ...env });
  servers.push(b);
  return [a, b];
}

const me = (server: PortalServer, token: string) =>
  server.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { 'auth-token': token } });

describe.each(['sqlite', 'postgres'] as const)('two replicas on %s storage', (kind) => {
  it('a code accepted by one replica is refused by the other', async () => {
    const [a, b] = await replicas(await storageEnv(kind));
    const code = totp.generate();
    const first = await login(a, { ...ADMIN, code });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await login(b, { ...ADMIN, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ success: false, totpRequired: true });
    expect(cookieValue(replay, 'auth-token')).toBeUndefined();
    // And on the first replica itself.
    expect((await login(a, { ...ADMIN, code })).statusCode).toBe(401);
  });

  it('a session logged out on one replica is refused by the other', async () => {
    const [a, b] = await replicas(await storageEnv(kind));
    const res = await login(a, { ...ADMIN, code: totp.generate() });
    const token = cookieValue(res, 'auth-token')!;
    expect((await me(b, token)).statusCode).toBe(200);
    const out = await a.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { 'auth-token': token },
      headers: { origin: 'http://localhost:80' },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(b, token)).json()).toEqual({ authenticated: false });
    expect((await me(a, token)).statusCode).toBe(401);
  });
});

describe('without server storage', () => {
  it('each process keeps its own lists (the documented single-replica mode)', async () => {
    const [a, b] = await replicas({});
    const code = totp.generate();
    expect((await login(a, { ...ADMIN, code })).statusCode).toBe(200);
    expect((await login(a, { ...ADMIN, code })).statusCode).toBe(401);
    expect((await login(b, { ...ADMIN, code })).statusCode).toBe(200);
  });
});

describe.each(['sqlite', 'postgres'] as const)('stored session state on %s', (kind) => {
  it('lets exactly one of many concurrent claims of a code win, and forgets expired entries', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { store } = await openStore(kind, { now: () => new Date(now) });
    try {
      const state = store.sessionState;
      const wins = await Promise.all(
        Array.from({ length: 8 }, () => state.claimCode('admin:1', now + 60_000)),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      await state.revoke('jti-1', now + 1000);
      expect(await state.isRevoked('jti-1')).toBe(true);
      expect(await state.isRevoked('jti-2')).toBe(false);
      now += 120_000;
      // Writing sweeps what expired: the old code's key can be claimed again, the old logout is gone.
      expect(await state.claimCode('admin:2', now + 60_000)).toBe(true);
      expect(await state.claimCode('admin:1', now + 60_000)).toBe(true);
      await state.revoke('jti-3', now + 1000);
      expect(await state.isRevoked('jti-1')).toBe(false);
      expect(await state.isRevoked('jti-3')).toBe(true);
    } finally {
      await store.close();
    }
  });
});
