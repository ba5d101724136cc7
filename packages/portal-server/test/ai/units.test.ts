// Pure parts of the agent, table-driven: drive credentials (one run, one use, about a minute, tamper-proof),
// thread context (newest kept, bounded), the workflow parser, and the thread-context switch on a real server.
import { describe, expect, it } from 'vitest';
import { DRIVE_TTL_MS, DriveCredentials } from '../../src/agent/credentials.js';
import { type AgentRun, threadContext } from '../../src/agent/runs.js';
import { parseWorkflow } from '../../src/agent/workflows.js';
import { aiPortal, parseSse } from './harness.js';

describe('drive credentials', () => {
  const key = Buffer.alloc(32, 7);

  it('names one run, works once and expires after about a minute', () => {
    let now = 1_000_000;
    const creds = new DriveCredentials(key, () => now);
    const { credential, expiresAt } = creds.mint('run-1');
    expect(Date.parse(expiresAt) - now).toBe(DRIVE_TTL_MS);
    expect(creds.redeem(credential)).toMatchObject({ runId: 'run-1' });
    expect(creds.redeem(credential)).toEqual({ refused: 'the credential was already used' });
    const late = creds.mint('run-2').credential;
    now += DRIVE_TTL_MS;
    expect(creds.redeem(late)).toEqual({ refused: 'the credential has expired' });
  });

  it.each([
    ['not a string', 42],
    ['no prefix', 'abc.def'],
    ['empty parts', 'agd_.'],
    ['garbage', 'agd_xxxx.yyyy'],
    ['very long', `agd_${'a'.repeat(2000)}`],
  ])('refuses %s', (_name, value) => {
    const creds = new DriveCredentials(key);
    expect(creds.redeem(value)).toHaveProperty('refused');
  });

  it('refuses a credential signed with another key or with a changed run id', () => {
    const mine = new DriveCredentials(key);
    const theirs = new DriveCredentials(Buffer.alloc(32, 9));
    expect(mine.redeem(theirs.mint('run-1').credential)).toEqual({ refused: 'the credential is not valid' });
    const { credential } = mine.mint('run-1');
    const [body, mac] = credential.slice(4).split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, r: 'run-2' })).toString('base64url');
    expect(mine.redeem(`agd_${forged}.${mac}`)).toEqual({ refused: 'the credential is not valid' });
  });
});

describe('thread context', () => {
  const run = (objective: string, answer?: string) => ({ objective, answer }) as unknown as AgentRun;

  it('keeps the newest text within the bound and skips runs without an answer', () => {
    const text = threadContext([run('first', 'one'), run('pending'), run('second', 'two')], 4000);
    expect(text).toBe(
      'Earlier objective: first\nEarlier answer: one\n\nEarlier objective: second\nEarlier answer: two',
    );
    const long = threadContext([run('old', 'x'.repeat(5000)), run('new', 'y')], 4000);
    expect(long.length).toBe(4000);
    expect(long.endsWith('Earlier objective: new\nEarlier answer: y')).toBe(true);
  });

  it('is off with PORTAL_AGENT_THREAD_CONTEXT=false', async () => {
    const h = await aiPortal({ env: { PORTAL_AGENT_THREAD_CONTEXT: 'false' } });
    try {
      for (const objective of ['first question', 'second question']) {
        h.model.script.push({ text: `answer to ${objective}` });
        const res = await h.call(
          'POST',
          '/api/agent/runs',
          { objective, connectionId: 'shop', threadId: 't' },
          'user',
          {
            accept: 'text/event-stream',
          },
        );
        expect(parseSse(res.body).at(-1)?.data.status).toBe('completed');
      }
      expect(JSON.stringify(h.model.requests.at(-1)!.body.messages)).not.toContain('first question');
    } finally {
      await h.close();
    }
  });
});

describe('workflow parser', () => {
  it.each([
    ['investigation', 'investigation'],
    ['  Planning.', 'planning'],
    ['data-quality', 'data-quality'],
    ['I would say performance, not operations', 'performance'],
    ['quality', undefined],
    ['', undefined],
  ])('%j → %s', (answer, expected) => {
    expect(parseWorkflow(answer)).toBe(expected);
  });
});

describe('a deadline during a running statement', () => {
  it('cancels the statement in the engine and ends the run with agent_run_deadline_exceeded', async () => {
    // No statement reserve: the statement starts, and the run's 2 s deadline stops it mid-flight.
    const h = await aiPortal({ agent: { statementReserveMs: 0 } });
    try {
      h.model.script.push({
        // A long read on PostgreSQL's allowlist (pg_sleep is not on it: it reads nothing and only holds a
        // connection, so the classifier refuses it up front).
        toolCalls: [
          {
            name: 'run_query',
            args: { sql: 'SELECT count(*) AS n FROM generate_series(1, 100000000000) AS g' },
          },
        ],
      });
      h.model.script.push({ text: 'should not be reached' });
      const res = await h.call(
        'POST',
        '/api/agent/runs',
        { objective: 'sleep', connectionId: 'shop', deadlineSeconds: 2 },
        'user',
        { accept: 'text/event-stream' },
      );
      const events = parseSse(res.body);
      expect(events.at(-1)).toMatchObject({
        event: 'end',
        data: { status: 'failed', reason: 'agent_run_deadline_exceeded' },
      });
      expect(events.some((e) => e.event === 'result')).toBe(false);
      const runId = events[0].data.runId;
      // Either the statement was admitted and then stopped by the deadline (its outcome event is written when
      // the cancelled statement returns, which may be just after the run's end), or — on a very slow machine —
      // the model's tool call came after the deadline and was refused for it: both carry the deadline reason.
      let stopped: Record<string, unknown> | undefined;
      for (let i = 0; i < 50 && !stopped; i++) {
        const ops = (await h.auditOf('agent_operation')).filter((e) => e.runId === runId);
        stopped = ops.find((e) => e.operation === 'run_query' && e.reason === 'agent_run_deadline_exceeded');
        if (!stopped) await new Promise((r) => setTimeout(r, 100));
      }
      expect(stopped).toMatchObject({ result: 'failure' });
      // The engine is not left sleeping.
      let sleeping: unknown[] = [];
      for (let i = 0; i < 50; i++) {
        sleeping = await h.pgQuery(
          "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(60)%' AND state = 'active'",
        );
        if (sleeping.length === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(sleeping).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
