// After passwords, sessions, tokens, service-account tokens, global secrets and provider client secrets
// have been created and used, no table of the store holds any of them in plain text (SQLite and
// PostgreSQL): only scrypt hashes, SHA-256 hashes and sealed values.
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import {
  ADMIN_PASSWORD,
  asSession,
  asToken,
  createToken,
  createUser,
  login,
  startAuthServer,
} from './helpers.js';
import { STORES } from './stores.js';

async function everyRow(server: CiServer): Promise<string> {
  // Every table the store holds, also ones outside the schema type (the migrator's own).
  const db = server.database.db as Kysely<any>;
  const tables =
    server.database.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows
      : (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = 'public'`.execute(db)
        ).rows;
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['users', 'user_sessions', 'api_tokens']));
  const dump: string[] = [];
  for (const { name } of tables) {
    const rows = await db.selectFrom(name).selectAll().execute();
    dump.push(`${name}: ${JSON.stringify(rows)}`);
  }
  return dump.join('\n');
}

describe.each(STORES)('no plaintext credentials in the %s store', (_name, storeEnv) => {
  it('keeps only hashes and sealed values', async () => {
    const server = await startAuthServer(await storeEnv());
    try {
      const plaintexts: string[] = [ADMIN_PASSWORD];
      const adminCookie = await login(server, 'admin', ADMIN_PASSWORD);
      plaintexts.push(adminCookie.split('=')[1]);
      const admin = asSession(adminCookie);
      const user = await createUser(server, admin, 'plain', 'maintainer', 'plain-user-password-1');
      plaintexts.push(user.password);
      const userCookie = await login(server, 'plain', user.password);
      plaintexts.push(userCookie.split('=')[1]);
      const change = await server.app.inject({
        method: 'POST',
        url: '/api/v1/me/password',
        headers: asSession(userCookie),
        payload: { current_password: user.password, new_password: 'plain-user-password-2' },
      });
      expect(change.statusCode).toBe(204);
      plaintexts.push('plain-user-password-2');
      const token = await createToken(server, asSession(userCookie), 'scan me');
      plaintexts.push(token.secret);
      expect(
        (await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: asToken(token.secret) }))
          .statusCode,
      ).toBe(200);
      const sa = await server.app.inject({
        method: 'POST',
        url: '/api/v1/admin/service-accounts',
        headers: admin,
        payload: { name: 'scanner', role: 'viewer' },
      });
      const saToken = await server.app.inject({
        method: 'POST',
        url: `/api/v1/admin/service-accounts/${sa.json().id}/tokens`,
        headers: admin,
        payload: { name: 'scan' },
      });
      plaintexts.push(saToken.json().secret);
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/admin/secrets',
        headers: admin,
        payload: { name: 'DEPLOY_KEY', value: 'global-secret-plaintext' },
      });
      plaintexts.push('global-secret-plaintext');
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/admin/auth/providers',
        headers: admin,
        payload: {
          name: 'sso',
          issuer: 'https://sso.example.com',
          client_id: 'ci',
          client_secret: 'oidc-client-plaintext',
        },
      });
      plaintexts.push('oidc-client-plaintext');

      const dump = await everyRow(server);
      for (const secret of plaintexts)
        expect(dump, 'a credential is stored in plain text').not.toContain(secret);
      // What is there instead: password hashes, token hashes and sealed values.
      expect(dump).toMatch(/scrypt\$32768\$8\$1\$/);
      expect(dump).toMatch(/"token_hash":"[0-9a-f]{64}"/);
      expect(dump).toMatch(/"value_sealed":"v1\./);
      expect(dump).toMatch(/"client_secret_sealed":"v1\./);
    } finally {
      await server.close();
    }
  });
});
