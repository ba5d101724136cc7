// The dispatch benchmark's simulated agents, and the process they run in. Each agent is a real
// `AgentConnection` (gRPC over loopback HTTP/2, TLS unless BENCH_GRPC_TLS=off) that reports every assignment
// `started` and `finished` as soon as it arrives, through the real agent's report courier (a turn's reports
// in one message on the session stream: report-courier.ts), or — `batchReports: false`, the benchmark's
// baseline — with one ReportJob call per report, as agents did before issue 31. dispatch.bench.ts forks this file so that the agents' CPU
// (their gRPC and TLS clients, about half of a job's cost when they shared the server's process) is measured
// apart from the control plane's: `process.cpuUsage()` of each process is its own.
//
// A report that fails (the server too slow to answer within the call's retry window, or a refusal) is
// counted and its job left to the server's lease sweeper; it never throws out of the message handler, where
// an unhandled rejection ended the whole benchmark.
//
// IPC (parent → child): `{ start: { grpcPort, agents, capacity, prefix } }` → `{ ready: true }`;
// `{ collect: true }` → `{ assigned: [jobRunId, epochMs][], failures, cpuMs, reportTurns }` (then cleared);
// `{ stop: true }` → exits after closing its agents.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  AgentConnection,
  type JobReportInit,
  loadAgentSettings,
  reportCourierOf,
} from '../packages/ci-agent/src/index.js';

export const TOKEN = 'bench-dispatch-token';
/** gRPC over TLS, as deployed by default; `BENCH_GRPC_TLS=off` measures the cleartext port instead. */
export const GRPC_TLS = process.env.BENCH_GRPC_TLS !== 'off';

/** Reports that could not be delivered (the benchmark prints them; the server re-queues their jobs). */
export const reportFailures = { count: 0, last: '' };

/** The retry window of a report the batched call could not deliver (the worker's, for a start). */
const REPORT_RETRY_MS = 60_000;

/** An agent that reports every assignment started and finished as soon as it arrives. */
export function simAgent(
  grpcPort: number,
  name: string,
  assigned: Map<string, number>,
  capacity = 4,
  batchReports = true,
) {
  const conn = new AgentConnection(
    loadAgentSettings({
      // No scheme: TLS, the certificate pinned on first use; http://: the cleartext port.
      CI_SERVER: `${GRPC_TLS ? '' : 'http://'}127.0.0.1:${grpcPort}`,
      CI_AGENT_TOKEN: TOKEN,
      CI_AGENT_NAME: name,
      CI_AGENT_CAPACITY: String(capacity),
    }),
    {
      onServerMessage: (m) => {
        if (m.kind.case !== 'assignment') return;
        const id = m.kind.value.jobRunId;
        assigned.set(id, performance.now());
        held.add(id);
        void (async () => {
          try {
            await report({ jobRunId: id, kind: { case: 'started', value: {} } });
            await report({
              jobRunId: id,
              kind: { case: 'finished', value: { status: 'success', hasExitCode: true } },
            });
          } catch (err) {
            reportFailures.count++;
            reportFailures.last = err instanceof Error ? err.message : String(err);
          } finally {
            held.delete(id);
          }
        })();
      },
    },
  );
  const courier = reportCourierOf(conn);
  let singleCalls = 0;
  const report = (r: JobReportInit) => {
    if (batchReports) return courier.send(r, REPORT_RETRY_MS);
    singleCalls++;
    return conn.call((o) => conn.client.reportJob(r, o)).then(() => undefined);
  };
  const held = new Set<string>();
  conn.runningJobIds = () => [...held];
  const running = conn.run();
  return {
    ready: () => conn.session(),
    /** Turns of reports sent so far (session-stream messages and ReportJob calls). */
    reportTurns: () => courier.stats.many + courier.stats.one + singleCalls,
    stop: async () => {
      conn.stop();
      await running;
    },
  };
}

interface StartMessage {
  grpcPort: number;
  agents: number;
  capacity: number;
  prefix: string;
  batchReports: boolean;
}

/** The child's side: agents on command, their assignment times and CPU on request. */
function serve(): void {
  const assigned = new Map<string, number>();
  let agents: ReturnType<typeof simAgent>[] = [];
  let cpu0 = process.cpuUsage();
  let calls0 = 0;
  const reportTurns = () => agents.reduce((sum, a) => sum + a.reportTurns(), 0);
  const send = (m: unknown) => process.send?.(m);
  process.on('message', async (m: { start?: StartMessage; collect?: true; stop?: true }) => {
    if (m.start) {
      const { grpcPort, capacity, prefix, batchReports } = m.start;
      agents = Array.from({ length: m.start.agents }, (_, i) =>
        simAgent(grpcPort, `${prefix}-${i}`, assigned, capacity, batchReports),
      );
      await Promise.all(agents.map((a) => a.ready()));
      cpu0 = process.cpuUsage();
      calls0 = reportTurns();
      send({ ready: true });
    } else if (m.collect) {
      const cpu = process.cpuUsage(cpu0);
      cpu0 = process.cpuUsage();
      const calls = reportTurns();
      // Epoch milliseconds: the parent's clock is another process's performance.now().
      const origin = performance.timeOrigin;
      send({
        assigned: [...assigned].map(([id, t]) => [id, origin + t]),
        failures: { ...reportFailures },
        cpuMs: (cpu.user + cpu.system) / 1000,
        reportTurns: calls - calls0,
      });
      calls0 = calls;
      assigned.clear();
    } else if (m.stop) {
      await Promise.all(agents.map((a) => a.stop()));
      process.exit(0);
    }
  });
  // The parent went away: nothing left to serve.
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) serve();
