// The agent RPCs that carry job logs: PushLogs (one job run's batch) and PushLogBatches (the batches of an
// agent's round, of any of its job runs, in one call). Every batch is checked as any call about a job run is
// (the calling agent holds, or held, the job run: sessions.ts's `jobFor`), masked again with the job's
// secrets, and stored (logs/store.ts); each batch of PushLogBatches gets its own outcome, so one refused
// batch stores nothing and fails alone.
import type { LogBatch, LogBatches } from '@app/ci-proto';
import type { ConnectedAgent } from '../dispatch/agent-registry.js';
import { logTrace, logTraceOn } from '../replicas/log-trace.js';
import type { ExecutionData } from '../services/execution-data.js';
import { settleByJobRun } from './batched-calls.js';
import { invalid } from './refusals.js';
import type { AgentSessions } from './sessions.js';

// Agents send up to 2,000 lines per batch (4 MiB of text at most); room for larger ones later.
const MAX_BATCH_LINES = 5000;

export class LogCalls {
  constructor(
    private readonly sessions: AgentSessions,
    private readonly data: ExecutionData,
  ) {}

  async pushLogs(agent: ConnectedAgent, req: LogBatch) {
    if (logTraceOn) logTrace('call', 1, req.jobRunId);
    return this.storeBatch(agent, req);
  }

  /** One job run's batch, checked (the agent holds the job run) and stored. */
  private async storeBatch(agent: ConnectedAgent, req: LogBatch) {
    const info = await this.sessions.jobFor(agent, req.jobRunId);
    // Traced only once the batch is known to be this agent's (the id checked, the job held).
    if (logTraceOn && req.lines.length > 0)
      logTrace('recv', req.jobRunId, String(req.lines[0].seq), String(req.lines[req.lines.length - 1].seq));
    if (req.lines.length > MAX_BATCH_LINES) throw invalid(`at most ${MAX_BATCH_LINES} lines per batch`);
    // Masked again here: the agent masks too, but the server does not rely on it.
    const result = await this.data.logs.appendLogBatch(info.ref.jobRunId, req.lines, {
      mask: info.mask,
    });
    return { ackedSeq: BigInt(result.ackedSeq) };
  }

  /**
   * PushLogBatches: every batch as `pushLogs` would take it alone — the same checks (the agent holds the job
   * run), the same store call — and its own outcome in the answer, in request order. A refused batch stores
   * nothing and fails alone: a call mixing a job the agent holds with one it does not stores the first and
   * answers PERMISSION_DENIED for the second. A job run's batches are stored one after another, in request
   * order; different job runs' at once, so those of one call reach the store in the same turn and go in one
   * statement (logs/run-inserts.ts).
   */
  async pushLogBatches(agent: ConnectedAgent, req: LogBatches) {
    if (logTraceOn && req.batches.length > 0) logTrace('call', req.batches.length, req.batches[0].jobRunId);
    const outcomes = await settleByJobRun(req.batches, 'batches', (batch) => this.storeBatch(agent, batch));
    return {
      results: outcomes.map((o, i) => ({
        jobRunId: req.batches[i].jobRunId,
        ackedSeq: 0n,
        message: '',
        ...o,
      })),
    };
  }
}
