// The MCP endpoint through the SDK's own client over real HTTP: service-token authentication, the tool list,
// datasources limited to the token's allowlist, object descriptions without masked columns, a governed read
// with masked rows, writes refused by run_read, and submit_write held for approval exactly like the bot API
// until a reviewer approves and the worker runs it. Every call is audited.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, aiPortal, SECRET_EMAILS } from './harness.js';

let h: AiHarness;
let base: string;
let secret: string;
let tokenName: string;
let client: Client;

async function connect(bearer: string): Promise<Client> {
  const c = new Client({ name: 'portal-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return c;
}

type Answer = {
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  content: Array<{ text: string }>;
};
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as unknown as Answer;

beforeAll(async () => {
  h = await aiPortal();
  const port = await h.server.listen();
  base = `http://127.0.0.1:${port}`;
  const made = await h.token({ datasources: ['shop', 'gated'] });
  secret = made.secret;
  tokenName = made.token.name as string;
  client = await connect(secret);
});
afterAll(async () => {
  await client?.close();
  await h?.close();
});

describe('MCP endpoint', () => {
  it('refuses callers without a valid service token, in the portal error shape', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED', statusCode: 401 });
    await expect(connect('pst_not-a-real-token')).rejects.toThrow();
    expect((await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(405);
  });

  it('lists its tools and only the datasources the token may use', async () => {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual([
      'describe_object',
      'get_execution',
      'list_datasources',
      'list_objects',
      'run_read',
      'submit_write',
    ]);
    const ds = await call('list_datasources');
    expect(ds.structuredContent).toEqual({
      datasources: [
        { id: 'shop', name: 'shop', type: 'postgres' },
        { id: 'gated', name: 'gated', type: 'postgres' },
      ],
    });
    const other = await call('list_objects', { datasourceId: 'owner' });
    expect(other.isError).toBe(true);
    expect(other.content[0].text).toContain('FORBIDDEN');
  });

  it('lists and describes objects without hidden objects or masked columns', async () => {
    const listed = await call('list_objects', { datasourceId: 'shop' });
    const names = (listed.structuredContent!.objects as Array<{ name: string }>).map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining(['customers', 'orders']));
    expect(names).not.toContain('secrets');
    const described = await call('describe_object', { datasourceId: 'shop', path: ['public', 'customers'] });
    const columns = (described.structuredContent!.columns as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(['id', 'name', 'region']);
  });

  it('runs a governed read with masked rows', async () => {
    const r = await call('run_read', {
      datasourceId: 'shop',
      sql: 'SELECT id, email FROM customers ORDER BY id',
    });
    expect(r.isError, r.content[0].text).toBeFalsy();
    const execution = r.structuredContent?.execution as { status: string; execution: { rows: unknown[] } };
    expect(r.structuredContent?.httpStatus).toBe(200);
    expect(execution.execution.rows).toEqual([
      { id: 1, email: '****' },
      { id: 2, email: '****' },
    ]);
    for (const s of SECRET_EMAILS) expect(JSON.stringify(r)).not.toContain(s);
  });

  it('refuses a write through run_read and holds submit_write for approval like the bot API', async () => {
    const refused = await call('run_read', { datasourceId: 'shop', sql: 'DELETE FROM orders' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toContain('READ_ONLY');
    const held = await call('submit_write', {
      datasourceId: 'gated',
      sql: 'UPDATE orders SET amount = 1 WHERE id = 10',
      onBehalfOf: 'user@example.test',
    });
    expect(held.isError, held.content[0].text).toBeFalsy();
    expect(held.structuredContent?.httpStatus).toBe(202);
    const record = held.structuredContent?.execution as { id: string; status: string; approvalId: string };
    expect(record.status).toBe('pending');
    expect(await h.pgQuery('SELECT amount FROM orders WHERE id = 10')).toEqual([{ amount: 500 }]);
    expect((await h.decide(record.approvalId, 'approve', 'admin')).statusCode).toBe(200);
    await h.drain();
    expect(await h.pgQuery('SELECT amount FROM orders WHERE id = 10')).toEqual([{ amount: 1 }]);
    const after = await call('get_execution', { id: record.id });
    expect(after.structuredContent?.execution).toMatchObject({
      id: record.id,
      execution: { status: 'done', rowCount: 1 },
    });
    await h.pgQuery('UPDATE orders SET amount = 500 WHERE id = 10');
  });

  it('audits every call under the token name', async () => {
    const calls = (await h.auditOf('mcp_call')).filter((e) => e.actor === `token:${tokenName}`);
    const tools = calls.map((e) => `${e.tool}:${e.result}`);
    expect(tools).toEqual(
      expect.arrayContaining([
        'list_datasources:success',
        'list_objects:failure',
        'describe_object:success',
        'run_read:success',
        'run_read:failure',
        'submit_write:success',
        'get_execution:success',
      ]),
    );
    expect(calls.find((e) => e.tool === 'run_read' && e.result === 'failure')).toMatchObject({
      connection: 'shop',
      code: 'READ_ONLY',
    });
  });
});
