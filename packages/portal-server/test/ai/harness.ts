// Shared setup of the AI, agent and MCP tests: the scripted model server, a real PostgreSQL database with a
// least-privilege `agent` role, and a whole portal (the bot harness: SQLite storage, managed datasources,
// signed-in administrator and user) whose AI settings point at the scripted model.
import { randomBytes } from 'node:crypto';
import { createPostgresDatabase } from '@app/kit/testing';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { ORIGIN } from '../auth/helpers.js';
import { type BotHarness, botPortal, datasourceEntry } from '../bot/harness.js';
import { type ScriptedModel, startScriptedModel } from './scripted-model.js';

export const SECRET_EMAILS = ['ann@corp.example', 'ben@corp.example'];

const SETUP = [
  'CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200) NOT NULL, region VARCHAR(20))',
  "INSERT INTO customers VALUES (1, 'Ann', 'ann@corp.example', 'north'), (2, 'Ben', 'ben@corp.example', 'south')",
  'CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT REFERENCES customers(id), amount INT NOT NULL)',
  'INSERT INTO orders VALUES (10, 1, 500), (11, 2, 70), (12, 2, 30)',
  'CREATE TABLE secrets (id INT PRIMARY KEY, note TEXT)',
  "INSERT INTO secrets VALUES (1, 'hidden')",
  // A function that writes behind a SELECT: the classifier reads a SELECT, the database must refuse it.
  'CREATE FUNCTION sneaky() RETURNS int LANGUAGE sql AS $$ INSERT INTO orders VALUES (99, 1, 1) RETURNING 1 $$',
];

export interface AiHarness extends BotHarness {
  model: ScriptedModel;
  pgUrl: string;
  agentRole: string;
  pgQuery(text: string): Promise<Record<string, unknown>[]>;
  /** A session request as the administrator or the user. */
  call(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    who?: 'admin' | 'user',
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export interface SseEvent {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export function parseSse(body: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of body.split('\n\n')) {
    let id = 0;
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = Number(line.slice(4));
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (data) out.push({ id, event, data: JSON.parse(data) });
  }
  return out;
}

export async function aiPortal(
  options: {
    env?: Record<string, string>;
    agent?: { classifyTimeoutMs?: number; statementReserveMs?: number };
  } = {},
): Promise<AiHarness> {
  const model = await startScriptedModel();
  const pgUrl = await createPostgresDatabase(inject('services').postgresUrl);
  const pgQuery = async (text: string) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      return (await c.query(text)).rows as Record<string, unknown>[];
    } finally {
      await c.end();
    }
  };
  for (const s of SETUP) await pgQuery(s);
  // The least-privilege account of the read-only profile: SELECT only (role names are cluster-wide).
  const agentRole = `agent_${randomBytes(4).toString('hex')}`;
  const agentPassword = randomBytes(12).toString('hex');
  const db = new URL(pgUrl).pathname.slice(1);
  await pgQuery(`CREATE ROLE ${agentRole} LOGIN PASSWORD '${agentPassword}'`);
  await pgQuery(`GRANT CONNECT ON DATABASE "${db}" TO ${agentRole}`);
  await pgQuery(`GRANT USAGE ON SCHEMA public TO ${agentRole}`);
  await pgQuery(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${agentRole}`);
  const entry = (id: string, policy: string) =>
    datasourceEntry(id, 'postgres', pgUrl, [`name: ${id}`, `policy: ${policy}`]);
  const masking = '[{ column: customers.email, rule: full }]';
  const h = await botPortal({
    datasources: () =>
      entry(
        'shop',
        `{ masking: ${masking}, objectRules: { hidden: ["public.secrets"], defaultSchema: public }, agent: { user: ${agentRole}, password: "${agentPassword}" } }`,
      ) +
      entry('owner', `{ masking: ${masking} }`) +
      entry('gated', `{ masking: ${masking}, writeApproval: true, guardrails: false }`),
    env: {
      AI_PROVIDER: 'openai',
      AI_BASE_URL: model.url,
      AI_MODEL: 'scripted-1',
      AI_API_KEY: 'sk-harness-key',
      ...options.env,
    },
    agent: options.agent,
  });
  const call: AiHarness['call'] = (method, url, payload, who = 'user', headers = {}) =>
    h.server.app.inject({
      method,
      url,
      headers: {
        cookie: `auth-token=${who === 'admin' ? h.adminCookie : h.userCookie}`,
        origin: ORIGIN,
        ...headers,
      },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    ...h,
    model,
    pgUrl,
    agentRole,
    pgQuery,
    call,
    async close() {
      await h.close();
      await model.close();
      await pgQuery(`DROP OWNED BY ${agentRole}`).catch(() => undefined);
    },
  };
}
