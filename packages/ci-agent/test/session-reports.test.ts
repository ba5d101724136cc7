// An agent's job reports over a real gRPC connection (AgentConnection and the worker's report courier) to a
// control plane double on loopback — a Connect server whose Register offers, or does not offer, reports on the
// session stream:
// - offered: the reports go up the stream and are answered there; no report call is made;
// - not offered (a control plane from before them): each report goes by ReportJob;
// - the stream ends before the answer: the reports are sent again alone by ReportJob on the next session,
//   and none is lost.
import { AgentConnection, loadAgentSettings, reportCourierOf } from '@app/ci-agent';
import { type AgentMessage, AgentService, type JobReport } from '@app/ci-proto';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDoubles } from './connect-double.js';

const label = (r: JobReport) => `${r.jobRunId}:${r.kind.case}`;

interface Double {
  port: number;
  /** Reports by the way they came: on the stream, by ReportJob. */
  onStream: string[];
  byReportJob: string[];
  registrations: number;
}

const startDouble = connectDoubles();
const connections: AgentConnection[] = [];
afterEach(() => {
  for (const c of connections.splice(0)) c.stop();
});

/**
 * A control plane double. `offer`: Register offers session reports. `dropFirst`: the first session's stream
 * ends, unanswered, when its first reports arrive. `lie`: every reports message is answered first under an
 * id the agent never used, then under its own id without a result for any report.
 */
async function controlPlane(offer: boolean, dropFirst = false, lie = false): Promise<Double> {
  const d: Double = { port: 0, onStream: [], byReportJob: [], registrations: 0 };
  d.port = await startDouble((router) => {
    router.rpc(AgentService.method.register, async () => {
      d.registrations++;
      return {
        agentId: 'agent-1',
        sessionId: `session-${d.registrations}`,
        heartbeatIntervalMs: 60_000,
        sessionReports: offer,
      };
    });
    router.rpc(AgentService.method.session, async function* (requests: AsyncIterable<AgentMessage>) {
      const first = d.registrations === 1;
      for await (const m of requests) {
        if (m.kind.case !== 'reports') continue;
        if (dropFirst && first) return;
        if (lie) {
          // An answer naming no message the agent sent, claiming success; then the real id with no results.
          yield {
            kind: {
              case: 'reportResults',
              value: { id: m.kind.value.id + 1000n, results: [{ jobRunId: 'a', code: 0, message: '' }] },
            },
          };
          yield { kind: { case: 'reportResults', value: { id: m.kind.value.id, results: [] } } };
          continue;
        }
        d.onStream.push(...m.kind.value.reports.map(label));
        yield {
          kind: {
            case: 'reportResults',
            value: {
              id: m.kind.value.id,
              results: m.kind.value.reports.map((r) => ({ jobRunId: r.jobRunId, code: 0, message: '' })),
            },
          },
        };
      }
    });
    router.rpc(AgentService.method.reportJob, async (req) => {
      d.byReportJob.push(label(req));
      return {};
    });
  });
  return d;
}

/** A connected agent and its worker's courier. */
async function agentOf(d: Double) {
  const conn = new AgentConnection(
    loadAgentSettings({
      CI_SERVER: `http://127.0.0.1:${d.port}`,
      CI_AGENT_TOKEN: 'token',
      CI_AGENT_NAME: 'double-agent',
    }),
  );
  connections.push(conn);
  void conn.run();
  await conn.session();
  return { conn, courier: reportCourierOf(conn) };
}

const started = (jobRunId: string) => ({ jobRunId, kind: { case: 'started' as const, value: {} } });
const finished = (jobRunId: string) => ({
  jobRunId,
  kind: { case: 'finished' as const, value: { status: 'success', hasExitCode: true } },
});

describe('job reports over a real connection', () => {
  it('go up the session stream when the control plane offers it, and no report call is made', async () => {
    const d = await controlPlane(true);
    const { courier } = await agentOf(d);
    await Promise.all([courier.send(started('a'), 60_000), courier.send(started('b'), 60_000)]);
    await courier.send(finished('a'), 60_000);
    expect(d.onStream).toEqual(['a:started', 'b:started', 'a:finished']);
    expect(d.byReportJob).toEqual([]);
    expect(courier.stats).toEqual({ many: 2, one: 0, reports: 3 });
  });

  it('go one by one by ReportJob to a control plane that does not offer them', async () => {
    const d = await controlPlane(false);
    const { courier } = await agentOf(d);
    await Promise.all([courier.send(started('a'), 60_000), courier.send(finished('b'), 60_000)]);
    await courier.send(finished('a'), 60_000);
    expect(d.byReportJob.sort()).toEqual(['a:finished', 'a:started', 'b:finished']);
    expect(d.onStream).toEqual([]);
    expect(courier.stats).toMatchObject({ one: 3 });
  });

  it('are sent again alone by ReportJob on the next session when the stream ends unanswered', async () => {
    const d = await controlPlane(true, true);
    const { courier } = await agentOf(d);
    await Promise.all([courier.send(started('a'), 60_000), courier.send(finished('b'), 60_000)]);
    expect(d.registrations).toBe(2);
    expect(d.byReportJob.sort()).toEqual(['a:started', 'b:finished']);
    // The new session takes reports on its stream again.
    await courier.send(finished('a'), 60_000);
    expect(d.onStream).toEqual(['a:finished']);
  });

  it('are not settled by an answer naming another id, nor by one missing their results: each goes again by ReportJob', async () => {
    const d = await controlPlane(true, false, true);
    const { courier } = await agentOf(d);
    await Promise.all([courier.send(started('a'), 60_000), courier.send(finished('b'), 60_000)]);
    // Nothing was taken on the stream; each report arrived once, alone.
    expect(d.onStream).toEqual([]);
    expect(d.byReportJob.sort()).toEqual(['a:started', 'b:finished']);
  });
});
