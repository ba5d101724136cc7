// What the agent RPCs about sessions and jobs do, behind the gRPC plumbing of grpc-server.ts: registration
// with reconciliation (an agent coming back after a reconnect or a server restart keeps the job runs it still
// holds and is told to stop the rest), the session stream (heartbeats renew leases; assignments and
// cancellations go down) and job results. Logs are in log-calls.ts; service events, test reports, artifacts
// and caches in execution-data-calls.ts. Every call about a job run checks that the calling agent holds (or held) it.
// This is the gRPC face of dispatch/: it implements the agents' port (`streamPort`: assignments and
// cancels as protocol messages down the held stream), and reads and writes the store only through store/.

import type {
  AgentMessage,
  JobReport,
  RegisterRequest,
  ServerMessageSchema,
  SessionReports,
} from '@app/ci-proto';
import { AsyncQueue } from '@app/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import type { ActiveJobs } from '../dispatch/active-jobs.js';
import type { AgentPort, AgentRegistry, ConnectedAgent } from '../dispatch/agent-registry.js';
import type { Dispatcher, DispatcherLog } from '../dispatch/dispatcher.js';
import type { JobTransitions } from '../dispatch/job-transitions.js';
import type { ExecutionData } from '../services/execution-data.js';
import { isRevoked } from '../store/agent-identity.js';
import {
  activeLeases,
  agentHeldJob,
  jobsToStop,
  releaseClaim,
  renewLeases,
  setAgentStatus,
  shortenLeases,
  upsertAgent,
} from '../store/agent-leases.js';
import type { StoreDb } from '../store/database.js';
import { AgentStatusWriter, statusOf } from './agent-status.js';
import { type JobTurns, jobTurns, settleByJobRun } from './batched-calls.js';
import { type AgentIdentity, type AgentProof, revokedError } from './identity.js';
import { invalid, refusal } from './refusals.js';

type ServerMessageInit = MessageInitShape<typeof ServerMessageSchema>;

/** Dispatch's port to one agent (dispatch/agent-registry.ts), over the outbound half of its Session stream. */
function streamPort(outbound: AsyncQueue<ServerMessageInit>): AgentPort {
  return {
    sendAssignment: (assignment) => outbound.push({ kind: { case: 'assignment', value: assignment } }),
    sendCancel: (jobRunId, reason) =>
      outbound.push({ kind: { case: 'cancel', value: { jobRunId, reason } } }),
    close: () => outbound.close(),
    get closed() {
      return outbound.closed;
    },
  };
}

export interface AgentSessionDeps {
  db: StoreDb;
  registry: AgentRegistry;
  dispatcher: Dispatcher;
  transitions: JobTransitions;
  /** Context and secret masker of the jobs agents work on (dispatch/active-jobs.ts). */
  jobs: ActiveJobs;
  data: ExecutionData;
  log: DispatcherLog;
  heartbeatMs: number;
  leaseMs: number;
  /** Reconnect grace after a dropped stream (default DROP_GRACE_MS, at most the lease). */
  dropGraceMs?: number;
  /** True while the control plane shuts down (its own closing of streams is no signal of agent death). */
  stopping?: () => boolean;
  /** A stream dropped and its leases now end in `graceMs`: sweep then. */
  onDropped?: (graceMs: number) => void;
  systemLine(jobRunId: string, text: string): Promise<void>;
  /** Credentials and revocation; without it (unit tests) every registration is a token registration. */
  identity?: AgentIdentity;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Engines an agent may report (see the agent's RegisterRequest.engines). */
const ENGINES = new Set(['host', 'sandbox', 'podman']);

/** How long an agent whose stream dropped may take to reconnect before its jobs are re-queued. */
export const DROP_GRACE_MS = 5_000;
const MAX_JOB_IDS = 1000;
/** How long a finished report waits for the job's last log lines to be stored. */
const TAIL_WAIT_MS = 5_000;
const RESULTS = new Set(['success', 'failed', 'canceled']);
/** Report messages of one session taken at once (an agent sends one per turn of its event loop). */
const MAX_REPORT_MESSAGES_IN_FLIGHT = 16;

export const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** gocdnext's caps on a job's outputs: 64 entries, 64 KiB of names and values. */
const MAX_OUTPUTS = 64;
const MAX_OUTPUT_BYTES = 64 * 1024;

function checkedOutputs(outputs: Record<string, string>): Record<string, string> | undefined {
  const entries = Object.entries(outputs);
  if (entries.length === 0) return undefined;
  if (entries.length > MAX_OUTPUTS) throw invalid(`at most ${MAX_OUTPUTS} outputs per job`);
  const bytes = entries.reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  if (bytes > MAX_OUTPUT_BYTES) throw invalid(`a job's outputs are at most ${MAX_OUTPUT_BYTES} bytes`);
  return outputs;
}

function jobId(id: string): string {
  if (!UUID.test(id)) throw invalid(`"${cut(id, 64)}" is not a job run id`);
  return id;
}

export class AgentSessions {
  private readonly status: AgentStatusWriter;

  constructor(private readonly deps: AgentSessionDeps) {
    this.status = new AgentStatusWriter(deps);
  }

  agent(sessionId: string): ConnectedAgent {
    const agent = this.deps.registry.bySessionId(sessionId);
    if (!agent) throw new ConnectError('unknown agent session; register again', Code.Unauthenticated);
    return agent;
  }

  /** The agent no longer has the job run: a queued one goes back to the queue, a running one fails/retries. */
  private async lose(jobRunId: string, agentId: string, message: string, reassign = false): Promise<void> {
    const outcome = await this.deps.transitions.lost(jobRunId, agentId, message, false, reassign);
    this.deps.dispatcher.released(jobRunId);
    if (outcome === 'released') await this.deps.dispatcher.enqueue([jobRunId]);
    else if (outcome) await this.deps.systemLine(jobRunId, `[ci] ${message}`).catch(() => undefined);
  }

  async register(req: RegisterRequest, proof: AgentProof = { kind: 'token' }) {
    const name = req.name.trim();
    if (!name) throw invalid('agent name is required');
    if (proof.kind === 'credential' && proof.name !== name)
      throw new ConnectError(
        `this credential belongs to agent "${cut(proof.name, 200)}", not "${cut(name, 200)}"; set CI_AGENT_NAME ` +
          "back, or delete the agent's identity file to register a new agent",
        Code.PermissionDenied,
      );
    if (name.length > 200) throw invalid('agent name is longer than 200 characters');
    const tags = [...new Set(req.tags.map((t) => t.trim()).filter(Boolean))];
    if (tags.length > 64 || tags.some((t) => t.length > 100))
      throw invalid('at most 64 tags of at most 100 characters each');
    const info = {
      name,
      tags,
      capacity: req.capacity > 0 ? Math.min(req.capacity, 256) : 1,
      version: req.version,
      hostname: req.hostname,
    };
    const engines = [...new Set(req.engines)].filter((e) => ENGINES.has(e));
    const { db, registry, leaseMs, identity } = this.deps;
    if (proof.kind === 'token') await identity?.admit(name);
    const id = await upsertAgent(db, info);
    // A first registration (or one after the agent lost its identity file) is given its own credential.
    const credential = proof.kind === 'token' && identity ? await identity.issueCredential(id, name) : '';
    const reported = [...new Set(req.runningJobIds)].filter((j) => UUID.test(j)).slice(0, MAX_JOB_IDS);
    const stop = new Set(await jobsToStop(db, id, reported));
    const keep = reported.filter((j) => !stop.has(j));
    // Jobs the store has on this agent that it no longer runs: it restarted, or an assignment was lost.
    for (const job of await activeLeases(db, id)) {
      if (!keep.includes(job.id))
        await this.lose(job.id, id, `agent ${name} came back without the job (it restarted or never got it)`);
    }
    const agent = registry.register({ id, ...info, engines }, keep);
    if (keep.length > 0) await renewLeases(db, id, 'online', keep, leaseMs, 0);
    this.status.forget(id);
    this.deps.log.info(
      { agent: name, agentId: id, kept: keep.length, stopped: stop.size },
      'agent registered',
    );
    return {
      agentId: id,
      sessionId: agent.sessionId,
      heartbeatIntervalMs: this.deps.heartbeatMs,
      leaseMs,
      cancelJobIds: [...stop],
      credential,
      sessionReports: true,
    };
  }

  /**
   * An admin revoked the agent: its session ends with `Unauthenticated` (the agent logs it and exits), this
   * process forgets it, and the job runs it held go back to the queue at once — a running one as a new
   * attempt that spends no retry. (Another replica holding the agent's stream notices on its next heartbeat.)
   */
  async revoke(agentId: string, name: string): Promise<number> {
    const agent = this.deps.registry.get(agentId);
    if (agent) {
      agent.revoked = true;
      agent.outbound?.close();
      this.deps.registry.remove(agentId);
    }
    const held = await activeLeases(this.deps.db, agentId);
    for (const job of held)
      await this.lose(job.id, agentId, `agent ${name} was revoked by an administrator`, true);
    this.deps.data.metrics.setJobsRunning(this.deps.registry.runningJobs());
    return held.length;
  }

  async *session(agent: ConnectedAgent, requests: AsyncIterable<AgentMessage>, signal: AbortSignal) {
    const { registry, dispatcher, db } = this.deps;
    const outbound = new AsyncQueue<ServerMessageInit>();
    const port = streamPort(outbound);
    const inTurn = jobTurns();
    const inFlight = new Set<Promise<void>>();
    registry.attach(agent.sessionId, port);
    await this.status.sync(agent, true).catch(() => undefined);
    dispatcher.pump();
    // Inbound messages are read concurrently with the outbound stream.
    void (async () => {
      try {
        for await (const msg of requests) {
          // A database blip must not end the session: the heartbeat is lost (the lease sweeper measures
          // leases from when the store was reachable again), the agent stays connected.
          try {
            if (msg.kind.case === 'heartbeat')
              await this.heartbeat(agent, msg.kind.value.runningJobIds, outbound);
            else if (msg.kind.case === 'reports') {
              // Not awaited: the stream's next messages (heartbeats, more reports) are read meanwhile — up
              // to a bound, past which the stream waits (HTTP/2 flow control), so no agent can make this
              // process hold more than that many messages' work.
              const work = this.sessionReports(agent, msg.kind.value, outbound, inTurn);
              inFlight.add(work);
              void work.finally(() => inFlight.delete(work));
              if (inFlight.size >= MAX_REPORT_MESSAGES_IN_FLIGHT) await Promise.race(inFlight);
            } else if (msg.kind.case === 'drain') {
              agent.draining = true;
              this.deps.log.info({ agent: agent.name }, 'agent is draining');
              await this.status.sync(agent);
            }
          } catch (err) {
            this.deps.log.warn(
              { err, agent: agent.name },
              'agent message not processed (store unavailable?)',
            );
          }
        }
      } catch {
        // The agent went away; what it held is decided by its leases.
      } finally {
        outbound.close();
        if (registry.detach(agent.sessionId, port)) {
          this.status.noteWritten(agent.id, 'offline');
          await setAgentStatus(db, agent.id, 'offline').catch(() => undefined);
          // A dropped stream is a signal, not proof: the agent gets a short grace to reconnect (registering
          // renews its leases), then its jobs are swept back into the queue.
          if (!this.deps.stopping?.()) {
            const grace = Math.min(this.deps.dropGraceMs ?? DROP_GRACE_MS, this.deps.leaseMs);
            await shortenLeases(db, agent.id, grace).catch(() => undefined);
            this.deps.onDropped?.(grace);
          }
        }
      }
    })();
    signal.addEventListener('abort', () => outbound.close(), { once: true });
    yield* outbound;
    if (agent.revoked) throw revokedError();
  }

  private async heartbeat(agent: ConnectedAgent, running: string[], outbound: AsyncQueue<ServerMessageInit>) {
    const { db, leaseMs, heartbeatMs } = this.deps;
    agent.lastSeenAt = new Date();
    // Revoked through another replica: end the session here too (its leases lapse and are re-queued).
    if (this.deps.identity && (await isRevoked(db, agent.id))) {
      await this.revoke(agent.id, agent.name);
      return;
    }
    const reported = [...new Set(running)].filter((j) => UUID.test(j)).slice(0, MAX_JOB_IDS);
    agent.runningJobIds = reported;
    const stop = await jobsToStop(db, agent.id, reported);
    const keep = reported.filter((j) => !stop.includes(j));
    // Assignments of the last two intervals may not have reached the agent's report yet.
    await renewLeases(db, agent.id, statusOf(agent), keep, leaseMs, 2 * heartbeatMs);
    this.status.noteWritten(agent.id, statusOf(agent));
    outbound.push({ kind: { case: 'heartbeatAck', value: { cancelJobIds: stop } } });
    this.deps.dispatcher.pump();
  }

  /** The job run's context, after checking that `agent` holds it (or held it: late logs of a finished job). */
  async jobFor(agent: ConnectedAgent, id: string) {
    jobId(id);
    if (this.deps.registry.holder(id) !== agent && !(await agentHeldJob(this.deps.db, id, agent)))
      throw new ConnectError(`job run ${id} is not assigned to this agent`, Code.PermissionDenied);
    const info = await this.deps.jobs.get(id);
    if (!info) throw new ConnectError(`job run ${id} does not exist`, Code.NotFound);
    return info;
  }

  /**
   * Reports that came on the session stream, answered on it under their message's id: each as `reportJob`
   * takes a ReportJob call, with its own result (batched-calls.ts). A job run's reports go in the order they
   * came, across the stream's messages too (`inTurn`), as a job's start must precede its end. A message
   * refused whole (too many reports) answers every report with the refusal.
   */
  private async sessionReports(
    agent: ConnectedAgent,
    msg: SessionReports,
    outbound: AsyncQueue<ServerMessageInit>,
    inTurn: JobTurns,
  ) {
    let results: { jobRunId: string; code: number; message: string }[];
    try {
      const outcomes = await settleByJobRun(msg.reports, 'reports', (r) =>
        inTurn(r.jobRunId, () => this.reportJob(agent, r)),
      );
      results = outcomes.map((o, i) => ({ jobRunId: msg.reports[i].jobRunId, message: '', ...o }));
    } catch (err) {
      const refused = refusal(err);
      results = msg.reports.map((r) => ({ jobRunId: r.jobRunId, ...refused }));
    }
    // A closed stream drops the answer: the agent sends what was not answered again by ReportJob.
    outbound.push({ kind: { case: 'reportResults', value: { id: msg.id, results } } });
  }

  async reportJob(agent: ConnectedAgent, req: JobReport) {
    const id = jobId(req.jobRunId);
    const { transitions, dispatcher, data, registry, jobs } = this.deps;
    switch (req.kind.case) {
      case 'started': {
        const known = registry.holder(id) === agent ? await jobs.get(id).catch(() => undefined) : undefined;
        const refusal = await transitions.started(id, agent.id, known?.ref.runId, req.kind.value.engine);
        // The agent reports the end of the canceled job, which frees its slot.
        if (refusal) agent.outbound?.sendCancel(id, refusal);
        await this.status.sync(agent);
        return {};
      }
      case 'finished': {
        const f = req.kind.value;
        if (!RESULTS.has(f.status))
          throw invalid(`job status "${cut(f.status, 40)}" is not success, failed or canceled`);
        const info = await jobs.get(id).catch(() => undefined);
        const error = info ? info.mask(cut(f.error, 2000)) : cut(f.error, 2000);
        // The agent sent its last lines before this report; wait until they are stored, so a finished run's
        // log is complete when its stream closes.
        if (f.lastSeq > 0n) await data.logs.waitForTail(id, Number(f.lastSeq), TAIL_WAIT_MS);
        const outcome = await transitions.finished(
          id,
          agent.id,
          {
            status: f.status as 'success' | 'failed' | 'canceled',
            exitCode: f.hasExitCode ? f.exitCode : null,
            error,
            commit: f.commit,
            outputs: checkedOutputs(f.outputs),
          },
          info?.ref.runId,
        );
        // A finish from an agent that does not hold the job (acked, as the protocol has it) changes nothing:
        // in particular it does not free the holder's slot here, which would hand the holder a job past its
        // capacity.
        if (outcome.accepted || registry.holder(id) === agent) {
          dispatcher.released(id);
          data.logs.forget(id);
        }
        if (outcome.accepted && info) {
          const durationSeconds = outcome.startedAt
            ? (Date.now() - Date.parse(outcome.startedAt)) / 1000
            : null;
          data.metrics.jobFinished({
            pipeline: info.pipeline,
            project: info.project,
            status: f.status,
            durationSeconds,
          });
        }
        // After the dispatcher's coalesced pick (queued for the end of this tick) has refilled the slot: a
        // busy agent that stays busy is not written as online and back.
        await new Promise((resolve) => setImmediate(resolve));
        await this.status.sync(agent);
        return {};
      }
      case 'rejected': {
        if (await releaseClaim(this.deps.db, id, agent.id)) {
          dispatcher.released(id);
          await dispatcher.enqueue([id]);
        }
        return {};
      }
      default:
        throw invalid('a job report needs started, finished or rejected');
    }
  }
}
