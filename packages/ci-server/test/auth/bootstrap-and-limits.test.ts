// The bootstrap administrator (generated password printed once, stored as a hash), sign-in rate limits,
// the Secure cookie flag behind https, and the switches CI_LOCAL_ACCOUNTS / CI_AUTH_ENABLED.
import { tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { startTestCiServer } from '../helpers.js';
import { ADMIN_PASSWORD, asSession, login, startAuthServer } from './helpers.js';

describe('bootstrap administrator', () => {
  it('generates a password once, prints it once, and stores only its hash', async () => {
    const dataDir = tempDir('ci-boot-');
    const env = { CI_DATA_DIR: dataDir, CI_PUBLIC_URL: 'http://ci.test:8153' };
    const first = await startTestCiServer(env);
    let password = '';
    try {
      const lines = first.announcements.filter((l) => l.includes('bootstrap administrator'));
      expect(lines).toHaveLength(1);
      password = /password: (\S+)/.exec(lines[0])![1];
      expect(password.length).toBeGreaterThanOrEqual(20);
      const row = await first.database.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow();
      expect(row.role).toBe('admin');
      expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect(row.password_hash).not.toContain(password);
      await login(first, 'admin', password);
    } finally {
      await first.close();
    }
    const second = await startTestCiServer(env);
    try {
      expect(second.announcements.some((l) => l.includes('bootstrap administrator'))).toBe(false);
      await login(second, 'admin', password);
    } finally {
      await second.close();
    }
  });

  it('uses CI_ADMIN_USERNAME and CI_ADMIN_PASSWORD when given, without printing them', async () => {
    const server = await startAuthServer({
      CI_ADMIN_USERNAME: 'root',
      CI_ADMIN_PASSWORD: 'given-password-1',
    });
    try {
      expect(server.announcements.join('\n')).not.toContain('given-password-1');
      const me = await server.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: asSession(await login(server, 'root', 'given-password-1')),
      });
      expect(me.json()).toMatchObject({ username: 'root', role: 'admin' });
    } finally {
      await server.close();
    }
  });
});

describe('sign-in rate limits', () => {
  it('refuses a user after 10 failures, even with the right password, from any address', async () => {
    const server = await startAuthServer();
    try {
      const attempt = (password: string, remoteAddress = '10.1.1.1') =>
        server.app.inject({
          method: 'POST',
          url: '/auth/login/local',
          remoteAddress,
          payload: { username: 'admin', password },
        });
      for (let i = 0; i < 10; i++) expect((await attempt('wrong-password-x')).statusCode).toBe(401);
      const limited = await attempt(ADMIN_PASSWORD);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: expect.stringMatching(/Too many/) });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await attempt(ADMIN_PASSWORD, '10.2.2.2')).statusCode).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('refuses an address after 50 failures across usernames, not other addresses', async () => {
    const server = await startAuthServer();
    try {
      const attempt = (username: string, password: string, remoteAddress: string) =>
        server.app.inject({
          method: 'POST',
          url: '/auth/login/local',
          remoteAddress,
          payload: { username, password },
        });
      // In parallel: each failure costs a full scrypt run (also for unknown users, so timing reveals nothing).
      const failures = await Promise.all(
        Array.from({ length: 50 }, (_, i) => attempt(`nobody-${i}`, 'wrong-password-x', '10.9.9.9')),
      );
      expect(failures.map((r) => r.statusCode)).toEqual(Array(50).fill(401));
      expect((await attempt('admin', ADMIN_PASSWORD, '10.9.9.9')).statusCode).toBe(429);
      expect((await attempt('admin', ADMIN_PASSWORD, '10.8.8.8')).statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('deployment switches', () => {
  it('marks the session cookie Secure when the public URL is https', async () => {
    const server = await startAuthServer({ CI_PUBLIC_URL: 'https://ci.example.com' });
    try {
      const res = await server.app.inject({
        method: 'POST',
        url: '/auth/login/local',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      expect(String(res.headers['set-cookie'])).toMatch(/svc_session=[^;]+;.*; Secure/);
      const cookie = String(res.headers['set-cookie']).split(';')[0];
      const put = await server.app.inject({
        method: 'PUT',
        url: '/api/v1/account/preferences',
        headers: { cookie, origin: 'https://ci.example.com' },
        payload: { preferences: {} },
      });
      expect(put.statusCode).toBe(204);
    } finally {
      await server.close();
    }
  });

  it('without local accounts: no local provider, local sign-in refused, no bootstrap user', async () => {
    const server = await startAuthServer({ CI_LOCAL_ACCOUNTS: 'false' });
    try {
      const providers = await server.app.inject({ method: 'GET', url: '/auth/providers' });
      expect(providers.json()).toEqual({ providers: [] });
      const res = await server.app.inject({
        method: 'POST',
        url: '/auth/login/local',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      });
      expect(res.statusCode).toBe(400);
      const users = await server.database.db.selectFrom('users').selectAll().execute();
      expect(users).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('lists local sign-in by default', async () => {
    const server = await startAuthServer();
    try {
      const providers = await server.app.inject({ method: 'GET', url: '/auth/providers' });
      expect(providers.json()).toEqual({ providers: [{ name: 'local', display: 'Username and password' }] });
      const redirect = await server.app.inject({ method: 'GET', url: '/auth/login/local?next=/runs' });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe('/login?next=%2Fruns');
    } finally {
      await server.close();
    }
  });
});
