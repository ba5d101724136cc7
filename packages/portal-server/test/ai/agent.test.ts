// The investigation agent end to end against the scripted model and a real PostgreSQL: classification (one
// call, 16 tokens, bounded time), a streamed run whose tools read through the read-only profile (the
// datasource's agent account, masked values, hidden objects), writes refused and audited on every path,
// deadlines with their typed reasons, handover, artifacts, drive credentials and thread context.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, aiPortal, parseSse, SECRET_EMAILS, type SseEvent } from './harness.js';
import { lastToolResult } from './scripted-model.js';

let h: AiHarness;

beforeAll(async () => {
  // A statement needs 30 s of the run's deadline: a run given 20 s is refused deterministically.
  h = await aiPortal({ agent: { classifyTimeoutMs: 300, statementReserveMs: 30_000 } });
});
afterAll(() => h?.close());

/** Opens a run and reads its whole progress stream (the POST answer itself, as text/event-stream). */
async function runStream(body: Record<string, unknown>, who: 'admin' | 'user' = 'user'): Promise<SseEvent[]> {
  const res = await h.call('POST', '/api/agent/runs', { connectionId: 'shop', ...body }, who, {
    accept: 'text/event-stream',
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/event-stream');
  return parseSse(res.body);
}

const of = (events: SseEvent[], name: string) => events.filter((e) => e.event === name);
const runIdOf = (events: SseEvent[]) => of(events, 'run')[0].data.runId as string;

async function operations(runId: string) {
  const all = await h.auditOf('agent_operation');
  return all.filter((e) => e.runId === runId);
}

describe('agent config and classify', () => {
  it('is enabled with a model and names one of five workflows in one 16-token call', async () => {
    expect((await h.call('GET', '/api/agent/config')).json()).toEqual({ enabled: true });
    h.model.script.push({ text: 'performance' });
    const before = h.model.requests.length;
    const r = await h.call('POST', '/api/agent/classify', { objective: 'Why is the orders report slow?' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ workflow: 'performance' });
    expect(h.model.requests.length).toBe(before + 1);
    const sent = h.model.requests.at(-1)!;
    expect(sent.body.max_tokens).toBe(16);
    expect(JSON.stringify(sent.body.messages)).toContain('data-quality');
  });

  it('refuses bad objectives without a model call and bounds the call in time', async () => {
    const before = h.model.requests.length;
    expect((await h.call('POST', '/api/agent/classify', { objective: 'x'.repeat(4001) })).statusCode).toBe(
      400,
    );
    expect((await h.call('POST', '/api/agent/classify', { objective: 42 })).statusCode).toBe(400);
    expect((await h.call('POST', '/api/agent/classify', {})).json()).toMatchObject({ code: 'BAD_REQUEST' });
    expect(h.model.requests.length).toBe(before);
    h.model.script.push({ hang: true });
    const slow = await h.call('POST', '/api/agent/classify', { objective: 'anything' });
    expect(slow.statusCode).toBe(504);
    expect(slow.json().code).toBe('AI_TIMEOUT');
    h.model.script.push({ text: 'banana' });
    expect((await h.call('POST', '/api/agent/classify', { objective: 'anything' })).statusCode).toBe(502);
  });
});

describe('a run', () => {
  let events: SseEvent[];
  let runId: string;

  beforeAll(async () => {
    h.model.script.push({ toolCalls: [{ name: 'list_objects', args: {} }] });
    h.model.script.push({
      toolCalls: [{ name: 'describe_object', args: { path: ['public', 'customers'] } }],
    });
    h.model.script.push({
      toolCalls: [
        {
          name: 'run_query',
          args: { sql: 'SELECT id, name, email, current_user AS who FROM customers ORDER BY id' },
        },
      ],
    });
    h.model.script.push((req) => {
      const rows = (lastToolResult(req) as { rows: unknown[] }).rows;
      return { text: `There are ${rows.length} customers.` };
    });
    events = await runStream({ objective: 'How many customers are there?', threadId: 'thread-1' });
    runId = runIdOf(events);
  });

  it('streams the run: operations, masked results, the answer and a drive credential', () => {
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(of(events, 'operation').map((e) => e.data.tool)).toEqual([
      'list_objects',
      'describe_object',
      'run_query',
    ]);
    const result = of(events, 'result')[0].data;
    expect(result.rowCount).toBe(2);
    const rows = result.rows as Array<Record<string, unknown>>;
    expect(rows[0]).toMatchObject({ id: 1, name: 'Ann', email: '****' });
    // The statement ran under the datasource's least-privilege agent account.
    expect(rows[0].who).toBe(h.agentRole);
    expect(of(events, 'answer')[0].data).toEqual({
      text: 'There are 2 customers.',
      statement: 'SELECT id, name, email, current_user AS who FROM customers ORDER BY id',
    });
    const end = of(events, 'end')[0].data;
    expect(end.status).toBe('completed');
    expect((end.drive as { credential: string }).credential).toMatch(/^agd_/);
    for (const s of SECRET_EMAILS) expect(JSON.stringify(events)).not.toContain(s);
  });

  it('never shows the model masked values, masked columns or hidden objects', () => {
    const sent = JSON.stringify(h.model.requests.slice(-4).map((r) => r.body.messages));
    for (const s of SECRET_EMAILS) expect(sent).not.toContain(s);
    expect(sent).not.toContain('secrets');
    const described = h.model.requests.slice(-4)[2];
    const columns = (lastToolResult(described) as { columns: Array<{ name: string }> }).columns.map(
      (c) => c.name,
    );
    expect(columns).toEqual(['id', 'name', 'region']);
    expect(
      h.model.requests
        .at(-1)!
        .body.tools?.map((t) => t.function.name)
        .sort(),
    ).toEqual(['describe_object', 'list_objects', 'run_query']);
  });

  it('audits a decision and an outcome per operation, sharing one correlation id', async () => {
    const ops = await operations(runId);
    const byCorrelation = new Map<string, string[]>();
    for (const e of ops)
      byCorrelation.set(e.correlationId as string, [
        ...(byCorrelation.get(e.correlationId as string) ?? []),
        e.phase as string,
      ]);
    // run + three tools, each with a decision and an outcome
    expect(byCorrelation.size).toBe(4);
    for (const phases of byCorrelation.values()) expect(phases.sort()).toEqual(['decision', 'outcome']);
    const query = ops.find((e) => e.operation === 'run_query' && e.phase === 'decision');
    expect(query).toMatchObject({
      result: 'success',
      decision: 'allowed',
      actor: 'user@example.test',
      connection: 'shop',
    });
    const executions = await h.auditOf('query_execution');
    expect(executions.find((e) => e.correlationId === query?.correlationId)).toMatchObject({
      profile: 'agent-read-only',
      route: '/api/agent/runs',
      result: 'success',
    });
  });

  it('serves its artifacts to its owner only', async () => {
    const correlationId = of(events, 'result')[0].data.correlationId as string;
    const a = await h.call('GET', `/api/agent/runs/${runId}/artifacts/${correlationId}`);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ correlationId, rowCount: 2, fields: ['id', 'name', 'email', 'who'] });
    expect(
      (await h.call('GET', `/api/agent/runs/${runId}/artifacts/${correlationId}`, undefined, 'admin'))
        .statusCode,
    ).toBe(404);
    expect((await h.call('GET', `/api/agent/runs/${runId}/artifacts/nope`)).statusCode).toBe(404);
    const replay = await h.call('GET', `/api/agent/runs/${runId}/events`, undefined, 'user', {
      'last-event-id': String(events.length - 1),
    });
    expect(parseSse(replay.body).map((e) => e.event)).toEqual(['end']);
  });

  it('hands over: replays its own answer statement read-only, and takes no SQL', async () => {
    const r = await h.call('POST', `/api/agent/runs/${runId}/handover`, {});
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      runId,
      statement: 'SELECT id, name, email, current_user AS who FROM customers ORDER BY id',
      rowCount: 2,
    });
    expect(r.json().rows[1]).toMatchObject({ email: '****', who: h.agentRole });
    const bad = await h.call('POST', `/api/agent/runs/${runId}/handover`, { sql: 'DELETE FROM customers' });
    expect(bad.statusCode).toBe(400);
    expect((await h.call('POST', `/api/agent/runs/${runId}/handover`, {}, 'admin')).statusCode).toBe(404);
    const handovers = (await operations(runId)).filter((e) => e.operation === 'handover');
    expect(handovers.map((e) => e.phase).sort()).toEqual(['decision', 'outcome']);
  });

  it('carries the thread into the next run of the same thread', async () => {
    h.model.script.push({ text: 'Still two.' });
    const next = await runStream({ objective: 'And now?', threadId: 'thread-1' });
    expect(of(next, 'end')[0].data.status).toBe('completed');
    const first = JSON.stringify(h.model.requests.at(-1)!.body.messages);
    expect(first).toContain('Earlier objective: How many customers are there?');
    expect(first).toContain('Earlier answer: There are 2 customers.');
    h.model.script.push({ text: 'Fresh.' });
    await runStream({ objective: 'Unrelated', threadId: 'thread-2' });
    expect(JSON.stringify(h.model.requests.at(-1)!.body.messages)).not.toContain('Earlier objective');
  });

  it('is driven on with its single-use, one-run credential (no session)', async () => {
    const credential = (of(events, 'end')[0].data.drive as { credential: string }).credential;
    h.model.script.push({ text: 'Orders total 600.' });
    const drive = (body: unknown) =>
      h.server.app.inject({ method: 'POST', url: '/api/agent/drive', payload: body as object });
    const r = await drive({ credential, instruction: 'What do orders total?' });
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json().runId).toBe(runId);
    const again = await drive({ credential });
    expect(again.statusCode).toBe(401);
    expect((await drive({ credential: `${credential.slice(0, -3)}abc` })).statusCode).toBe(401);
    expect((await drive({})).statusCode).toBe(401);
    // The resumed run ends again; its stream (from the last event seen) shows it.
    let tail: SseEvent[] = [];
    for (let i = 0; i < 50 && !tail.some((e) => e.event === 'end'); i++) {
      const res = await h.call('GET', `/api/agent/runs/${runId}/events`, undefined, 'user', {
        'last-event-id': String(events.length),
      });
      tail = parseSse(res.body);
    }
    expect(tail.map((e) => e.event)).toEqual(expect.arrayContaining(['resumed', 'answer', 'end']));
    expect(of(tail, 'answer')[0].data.text).toBe('Orders total 600.');
  });
});

describe('no tool path can write', () => {
  it('refuses a DELETE the model asks for, audits the refusal, and changes nothing', async () => {
    h.model.script.push({ toolCalls: [{ name: 'run_query', args: { sql: 'DELETE FROM customers' } }] });
    h.model.script.push((req) => ({
      text: `Refused: ${(lastToolResult(req) as { reason: string }).reason}`,
    }));
    const events = await runStream({ objective: 'Clean up customers' });
    const refused = of(events, 'refused')[0].data;
    expect(refused).toMatchObject({ tool: 'run_query', reason: 'agent_write_refused' });
    expect(of(events, 'answer')[0].data.text).toBe('Refused: agent_write_refused');
    const ops = await operations(runIdOf(events));
    const decision = ops.find((e) => e.operation === 'run_query');
    expect(decision).toMatchObject({
      phase: 'decision',
      decision: 'refused',
      result: 'failure',
      reason: 'agent_write_refused',
      statement: 'DELETE FROM customers',
    });
    // A refused operation has no outcome event.
    expect(ops.filter((e) => e.correlationId === decision?.correlationId)).toHaveLength(1);
    expect(await h.pgQuery('SELECT count(*)::int AS n FROM customers')).toEqual([{ n: 2 }]);
  });

  it('refuses scripts, writable CTEs, transaction control and a function it cannot verify', async () => {
    const attempts = [
      'SELECT 1; DELETE FROM orders',
      'WITH gone AS (DELETE FROM orders RETURNING *) SELECT * FROM gone',
      'BEGIN',
      'SELECT sneaky()',
    ];
    for (const sql of attempts) h.model.script.push({ toolCalls: [{ name: 'run_query', args: { sql } }] });
    h.model.script.push({ text: 'Done trying.' });
    const events = await runStream({ objective: 'Try to write', deadlineSeconds: 120 });
    const reasons = [...of(events, 'refused'), ...of(events, 'failed')].map((e) => e.data.reason);
    expect(reasons).toEqual([
      'agent_multiple_statements',
      'agent_write_refused',
      'agent_write_refused',
      // A user-defined function is not on PostgreSQL's allowlist: refused before it reaches the database.
      'agent_write_refused',
    ]);
    expect(of(events, 'result')).toHaveLength(0);
    expect(await h.pgQuery('SELECT count(*)::int AS n FROM orders')).toEqual([{ n: 3 }]);
  });

  it('refuses hidden objects through the policy', async () => {
    h.model.script.push({ toolCalls: [{ name: 'run_query', args: { sql: 'SELECT * FROM secrets' } }] });
    h.model.script.push({ text: 'ok' });
    const events = await runStream({ objective: 'read secrets' });
    expect(of(events, 'refused')[0].data.reason).toBe('agent_policy_denied');
  });
});

describe('deadlines', () => {
  it('ends a run whose model does not answer in time with agent_run_deadline_exceeded', async () => {
    h.model.script.push({ hang: true });
    const events = await runStream({ objective: 'slow model', deadlineSeconds: 1 });
    expect(of(events, 'end')[0].data).toMatchObject({
      status: 'failed',
      reason: 'agent_run_deadline_exceeded',
    });
    const ops = await operations(runIdOf(events));
    expect(ops.find((e) => e.phase === 'outcome' && e.operation === 'run')).toMatchObject({
      result: 'failure',
      reason: 'agent_run_deadline_exceeded',
    });
  });

  it('refuses a statement when less time remains than a statement needs', async () => {
    h.model.script.push({ toolCalls: [{ name: 'run_query', args: { sql: 'SELECT 1 AS one' } }] });
    h.model.script.push({ text: 'no time' });
    const events = await runStream({ objective: 'quick', deadlineSeconds: 20 });
    expect(of(events, 'refused')[0].data.reason).toBe('agent_insufficient_time_remaining');
    const ops = await operations(runIdOf(events));
    expect(ops.find((e) => e.operation === 'run_query')).toMatchObject({
      reason: 'agent_insufficient_time_remaining',
      result: 'failure',
    });
  });
});

describe('bad input', () => {
  it('answers 4xx in the portal shape for bad run bodies and unknown runs', async () => {
    const bad = [
      {},
      { objective: 'x' },
      { objective: 'x', connectionId: 'shop', workflow: 'hacking' },
      { objective: 'x', connectionId: 'shop', deadlineSeconds: '5' },
      { objective: 'x', connectionId: 'shop', deadlineSeconds: 601 },
      { objective: 'x', connectionId: 'shop', threadId: 'a b' },
    ];
    for (const body of bad) {
      const r = await h.call('POST', '/api/agent/runs', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
    }
    expect(
      (await h.call('POST', '/api/agent/runs', { objective: 'x', connectionId: 'nope' })).statusCode,
    ).toBe(404);
    expect((await h.call('GET', '/api/agent/runs/nope')).statusCode).toBe(404);
    expect((await h.call('POST', '/api/agent/runs/nope/handover', {})).statusCode).toBe(404);
    const anon = await h.server.app.inject({
      method: 'POST',
      url: '/api/agent/runs',
      payload: { objective: 'x' },
    });
    expect(anon.statusCode).toBe(401);
  });
});
