// The agent's report courier (src/report-courier.ts), with its sends recorded: the reports the worker makes
// in one turn go in one message, in order, and each sender gets its own report's answer; a later turn's
// reports go in a message of their own. What the message could not deliver — it failed whole, or one report
// was refused for a passing reason — goes again alone by ReportJob with that report's own retry window; a
// lasting refusal is the sender's answer and is not sent again. Over a real connection: session-reports.test.ts.
import { type JobReportInit, type ReportCalls, ReportCourier } from '@app/ci-agent';
import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';

const started = (jobRunId: string): JobReportInit => ({ jobRunId, kind: { case: 'started', value: {} } });
const finished = (jobRunId: string): JobReportInit => ({
  jobRunId,
  kind: { case: 'finished', value: { status: 'success', hasExitCode: true } },
});
/** A report as the calls below record it: `<job>:<kind>`. */
const label = (r: JobReportInit) => `${r.jobRunId}:${r.kind?.case}`;

/** Sends recorded: each message's reports, each ReportJob call's report with its retry window. */
function fakeCalls(answer?: (r: JobReportInit) => { code: number; message: string }) {
  const many: string[][] = [];
  const one: [string, number][] = [];
  const calls: ReportCalls = {
    many: async (reports) => {
      many.push(reports.map(label));
      return reports.map((r) => answer?.(r) ?? { code: 0, message: '' });
    },
    one: async (r, retryMs) => {
      one.push([label(r), retryMs]);
    },
    session: () => 's1',
  };
  return { calls, many, one };
}

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('report courier', () => {
  it("sends one turn's reports in one message, in order, and a later turn's in another", async () => {
    const f = fakeCalls();
    const courier = new ReportCourier(f.calls);
    await Promise.all([
      courier.send(started('a'), 1000),
      courier.send(started('b'), 1000),
      courier.send(finished('a'), 1000),
    ]);
    expect(f.many).toEqual([['a:started', 'b:started', 'a:finished']]);
    await nextTurn();
    await courier.send(finished('b'), 1000);
    expect(f.many).toEqual([['a:started', 'b:started', 'a:finished'], ['b:finished']]);
    expect(f.one).toEqual([]);
    expect(courier.stats).toEqual({ many: 2, one: 0, reports: 4 });
  });

  it('a lasting refusal is its sender’s answer alone; a passing one is sent again alone with its own window', async () => {
    const f = fakeCalls((r) =>
      r.jobRunId === 'foreign'
        ? { code: Code.PermissionDenied, message: 'job run foreign is not assigned to this agent' }
        : r.jobRunId === 'busy'
          ? { code: Code.Unavailable, message: 'the database is unavailable' }
          : { code: 0, message: '' },
    );
    const courier = new ReportCourier(f.calls);
    const [own, foreign, busy] = await Promise.allSettled([
      courier.send(started('own'), 1000),
      courier.send(started('foreign'), 1000),
      courier.send(finished('busy'), 3_600_000),
    ]);
    expect(own.status).toBe('fulfilled');
    expect(busy.status).toBe('fulfilled');
    expect(foreign.status).toBe('rejected');
    const err = ConnectError.from((foreign as PromiseRejectedResult).reason);
    expect(err.code).toBe(Code.PermissionDenied);
    expect(err.rawMessage).toBe('job run foreign is not assigned to this agent');
    // Only the report refused for a passing reason went again, with the hour a final report may take.
    expect(f.one).toEqual([['busy:finished', 3_600_000]]);
  });

  it('sends each report of a message that failed in transit again alone, each with its own window', async () => {
    const one: [string, number][] = [];
    const courier = new ReportCourier({
      many: async () => {
        throw new ConnectError('the control plane is restarting', Code.Unavailable);
      },
      one: async (r, retryMs) => {
        one.push([label(r), retryMs]);
      },
    });
    await Promise.all([courier.send(started('a'), 60_000), courier.send(finished('b'), 3_600_000)]);
    expect(one).toEqual([
      ['a:started', 60_000],
      ['b:finished', 3_600_000],
    ]);
  });

  it('gives a message refused for good back to every sender, and sends nothing again', async () => {
    const f = fakeCalls();
    const courier = new ReportCourier({
      ...f.calls,
      many: async () => {
        throw new ConnectError('at most 1024 reports per call', Code.InvalidArgument);
      },
    });
    const outcomes = await Promise.allSettled([courier.send(started('a'), 1), courier.send(started('b'), 1)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(f.one).toEqual([]);
  });

  it('splits a turn of more than 256 reports into several messages', async () => {
    const f = fakeCalls();
    const courier = new ReportCourier(f.calls);
    await Promise.all(Array.from({ length: 300 }, (_, i) => courier.send(started(`job-${i}`), 1)));
    expect(f.many.map((c) => c.length)).toEqual([256, 44]);
  });
});
