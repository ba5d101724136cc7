// The shape the batched agent calls share (src/agents/batched-calls.ts): one outcome per item in request
// order; a job run's items one after another, different job runs' at once; a refusal as the code and message
// the single call would have failed with (a database outage as UNAVAILABLE with the message agents key on,
// anything else that is not a ConnectError as "internal error", its text never shown); a call past the bound
// refused whole. `jobTurns` keeps a job run's order across the messages of a stream, and a failure in one turn
// does not stop the next.
import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { jobTurns, MAX_ITEMS_PER_CALL, settleByJobRun } from '../../src/agents/batched-calls.js';
import { DATABASE_UNAVAILABLE_AGENT } from '../../src/agents/refusals.js';

/** A promise settled from outside. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

describe('settleByJobRun', () => {
  it("answers in request order, a job run's items one after another and different job runs' at once", async () => {
    const log: string[] = [];
    const a1 = gate();
    const items = [
      { jobRunId: 'a', n: 1 },
      { jobRunId: 'b', n: 1 },
      { jobRunId: 'a', n: 2 },
    ];
    const settled = settleByJobRun(items, 'items', async (item) => {
      log.push(`start ${item.jobRunId}${item.n}`);
      if (item.jobRunId === 'a' && item.n === 1) await a1.opened;
      log.push(`end ${item.jobRunId}${item.n}`);
      return { n: item.n };
    });
    // b ran while a1 was held; a2 has not started.
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['start a1', 'start b1', 'end b1']);
    a1.open();
    expect(await settled).toEqual([
      { code: 0, n: 1 },
      { code: 0, n: 1 },
      { code: 0, n: 2 },
    ]);
    expect(log.slice(3)).toEqual(['end a1', 'start a2', 'end a2']);
  });

  it('answers a refused item with its single call’s code and message, and keeps internals to itself', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const outcomes = await settleByJobRun(
      [{ jobRunId: 'own' }, { jobRunId: 'foreign' }, { jobRunId: 'db' }, { jobRunId: 'bug' }],
      'items',
      async ({ jobRunId }) => {
        if (jobRunId === 'foreign')
          throw new ConnectError('not assigned to this agent', Code.PermissionDenied);
        if (jobRunId === 'db') throw outage;
        if (jobRunId === 'bug') throw new Error('secret internals at /srv/ci');
        return {};
      },
    );
    expect(outcomes).toEqual([
      { code: 0 },
      { code: Code.PermissionDenied, message: 'not assigned to this agent' },
      { code: Code.Unavailable, message: DATABASE_UNAVAILABLE_AGENT },
      { code: Code.Internal, message: 'internal error' },
    ]);
  });

  it('refuses a call past the bound whole, taking none of its items', async () => {
    let taken = 0;
    const items = Array.from({ length: MAX_ITEMS_PER_CALL + 1 }, () => ({ jobRunId: 'a' }));
    await expect(
      settleByJobRun(items, 'reports', async () => {
        taken++;
        return {};
      }),
    ).rejects.toThrow(`at most ${MAX_ITEMS_PER_CALL} reports per call`);
    expect(taken).toBe(0);
  });
});

describe('jobTurns', () => {
  it("runs a job run's work in arrival order across calls; other job runs do not wait", async () => {
    const inTurn = jobTurns();
    const log: string[] = [];
    const held = gate();
    const first = inTurn('a', async () => {
      await held.opened;
      log.push('a first');
    });
    const second = inTurn('a', async () => {
      log.push('a second');
    });
    await inTurn('b', async () => {
      log.push('b');
    });
    expect(log).toEqual(['b']);
    held.open();
    await Promise.all([first, second]);
    expect(log).toEqual(['b', 'a first', 'a second']);
  });

  it('a failed turn fails alone: the next one for the job run still runs', async () => {
    const inTurn = jobTurns();
    const failed = inTurn('a', async () => {
      throw new Error('refused');
    });
    const next = inTurn('a', async () => 'ran');
    await expect(failed).rejects.toThrow('refused');
    expect(await next).toBe('ran');
  });
});
