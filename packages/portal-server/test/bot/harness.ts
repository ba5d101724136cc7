// Shared setup of the bot API tests: a whole portal (createPortalServer) on SQLite storage with managed
// datasources from a YAML file, signed-in administrator and user sessions, service tokens minted through
// the admin route, and helpers to submit, poll, decide and drain the job queue (the worker's loop is not
// started: tests drain it themselves, so nothing depends on timing).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { createPortalServer, loadPortalSettings, type PortalServer } from '../../src/index.js';
import { ADMIN, JWT_SECRET, ORIGIN, sessionFor, USER } from '../auth/helpers.js';

export { ADMIN, USER };

export interface BotHarness {
  server: PortalServer;
  dataDir: string;
  adminCookie: string;
  userCookie: string;
  /** Mints a token through POST /api/admin/service-tokens; answers the secret and the token record. */
  token(body?: Record<string, unknown>): Promise<{ secret: string; token: Record<string, unknown> }>;
  submit(secret: string, body: Record<string, unknown>): Promise<LightMyRequestResponse>;
  read(secret: string, id: string): Promise<LightMyRequestResponse>;
  /** POST /api/approvals/{id}/decision as the administrator (or the user). */
  decide(
    approvalId: string,
    decision: 'approve' | 'reject',
    who?: 'admin' | 'user',
  ): Promise<LightMyRequestResponse>;
  /** Runs every runnable job (runs, callbacks, chat posts) until none is left. */
  drain(): Promise<number>;
  /** Audit events of a type, from the store. */
  auditOf(type: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/**
 * One `datasources:` entry of PORTAL_DATASOURCES (YAML, indented for botPortal's list) for a server database
 * URL, open to both roles; `extra` lines (policy, name, environment, …) are added under it.
 */
export function datasourceEntry(id: string, type: string, url: string, extra: string[] = []): string {
  const u = new URL(url);
  return [
    `  - id: ${id}`,
    `    type: ${type}`,
    `    host: ${u.hostname}`,
    `    port: ${u.port}`,
    `    user: ${decodeURIComponent(u.username)}`,
    `    password: "${decodeURIComponent(u.password)}"`,
    `    database: ${u.pathname.slice(1)}`,
    '    roles: [admin, user]',
    ...extra.map((l) => `    ${l}`),
    '',
  ].join('\n');
}

/** Creates a SQLite file with `sql` applied (managed datasources may name absolute paths). */
export function sqliteFile(dir: string, name: string, sql: string): string {
  const file = join(dir, name);
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return file;
}

export function sqliteRows(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

export async function botPortal(options: {
  /** The `datasources:` list of PORTAL_DATASOURCES, as YAML text (indented entries). */
  datasources: (dir: string) => string;
  env?: Record<string, string>;
  bot?: { callbackCa?: string[]; callbackBackoffMs?: number };
  /** Agent knobs (src/server.ts options.agent), for the AI tests. */
  agent?: { classifyTimeoutMs?: number; statementReserveMs?: number };
}): Promise<BotHarness> {
  const dataDir = tempDir('portal-bot-');
  const dsFile = join(dataDir, 'datasources.yaml');
  writeFileSync(dsFile, `datasources:\n${options.datasources(dataDir)}`);
  const server = await createPortalServer(
    loadPortalSettings({
      PORTAL_DATA_DIR: dataDir,
      PORT: '0',
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      USER_EMAIL: USER.email,
      USER_PASSWORD: USER.password,
      STORAGE_PROVIDER: 'sqlite',
      PORTAL_DATASOURCES: dsFile,
      ...options.env,
    }),
    { logger: false, bot: { callbackBackoffMs: 0, ...options.bot }, agent: options.agent },
  );
  await server.app.ready();
  const adminCookie = await sessionFor(server, ADMIN);
  const userCookie = await sessionFor(server, USER);
  const cookie = (who: 'admin' | 'user') => `auth-token=${who === 'admin' ? adminCookie : userCookie}`;
  return {
    server,
    dataDir,
    adminCookie,
    userCookie,
    async token(body = {}) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/admin/service-tokens',
        headers: { cookie: cookie('admin'), origin: ORIGIN },
        payload: { name: `bot-${Math.random().toString(36).slice(2, 8)}`, ...body },
      });
      if (res.statusCode !== 201) throw new Error(`token creation failed: ${res.statusCode} ${res.body}`);
      const json = res.json() as { secret: string; token: Record<string, unknown> };
      return json;
    },
    submit: (secret, body) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/executions',
        headers: { authorization: `Bearer ${secret}` },
        payload: body,
      }),
    read: (secret, id) =>
      server.app.inject({
        method: 'GET',
        url: `/api/v1/executions/${id}`,
        headers: { authorization: `Bearer ${secret}` },
      }),
    decide: (approvalId, decision, who = 'admin') =>
      server.app.inject({
        method: 'POST',
        url: `/api/approvals/${approvalId}/decision`,
        headers: { cookie: cookie(who), origin: ORIGIN },
        payload: { decision },
      }),
    drain: () => server.jobs?.drain() ?? Promise.resolve(0),
    async auditOf(type) {
      const page = await server.audit.query({ type, limit: 500, offset: 0 });
      return page.events as Array<Record<string, unknown>>;
    },
    close: () => server.close(),
  };
}
