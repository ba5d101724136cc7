// The agent RPCs that hand execution data to the data side (services/execution-data.ts): service lifecycle
// events, JUnit results, artifacts (header first, then chunks; the store verifies size and SHA-256) and
// caches (only of a project the agent runs a job of). Each checks that the agent holds the job run, masks
// free text with the job's secrets, and turns the store's refusals into gRPC codes.
import type {
  ArtifactChunk,
  ArtifactDataSchema,
  ArtifactRequest,
  CacheChunk,
  CacheChunkSchema,
  CacheKey,
  ServiceEvent,
  TestReport,
} from '@app/ci-proto';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { BlobRejectedError } from '../artifacts/blob-files.js';
import type { ActiveJobs } from '../dispatch/active-jobs.js';
import type { ConnectedAgent } from '../dispatch/agent-registry.js';
import type { DispatcherLog } from '../dispatch/dispatcher.js';
import type { ExecutionData } from '../services/execution-data.js';
import { ServiceEventError } from '../services/service-runs.js';
import { invalid } from './refusals.js';
import { type AgentSessions, cut } from './sessions.js';

const MAX_TEST_CASES = 20_000;
const BLOB_CODES = {
  invalid: Code.InvalidArgument,
  not_found: Code.NotFound,
  too_large: Code.ResourceExhausted,
  mismatch: Code.DataLoss,
} as const;

export interface ExecutionDataCallsDeps {
  data: ExecutionData;
  jobs: ActiveJobs;
  log: DispatcherLog;
}

export class ExecutionDataCalls {
  constructor(
    private readonly sessions: AgentSessions,
    private readonly deps: ExecutionDataCallsDeps,
  ) {}

  async reportService(agent: ConnectedAgent, req: ServiceEvent) {
    const info = await this.sessions.jobFor(agent, req.jobRunId);
    await this.asGrpc(() =>
      this.deps.data.services.recordServiceEvent({
        jobRunId: info.ref.jobRunId,
        serviceName: req.serviceName,
        state: req.state,
        message: info.mask(cut(req.message, 2000)),
        atMs: req.atMs,
      }),
    );
    return {};
  }

  async reportTests(agent: ConnectedAgent, req: TestReport) {
    const info = await this.sessions.jobFor(agent, req.jobRunId);
    // Every free text of a report is masked, not only the message (which carries the stack trace): a test
    // named after a value, or a suite printing one, must not show it either.
    const cases = req.cases.slice(0, MAX_TEST_CASES).map((c) => ({
      suite: info.mask(c.suite),
      classname: info.mask(c.classname),
      name: info.mask(c.name),
      status: c.status,
      durationS: Number.isFinite(c.durationS) && c.durationS >= 0 ? c.durationS : 0,
      message: info.mask(cut(c.message, 16_384)),
    }));
    await this.deps.data.reports.storeTestReport({
      jobRunId: info.ref.jobRunId,
      cases,
      unreadableFiles: req.unreadableFiles.slice(0, 1000).map((f) => info.mask(f)),
    });
    return {};
  }

  async uploadArtifact(agent: ConnectedAgent, requests: AsyncIterable<ArtifactChunk>) {
    const it = requests[Symbol.asyncIterator]();
    const first = await it.next();
    if (first.done || first.value.kind.case !== 'header')
      throw invalid('an artifact upload starts with its header');
    const h = first.value.kind.value;
    const info = await this.sessions.jobFor(agent, h.jobRunId);
    // Artifact metadata is shown to every viewer: a path that spells a secret is stored masked.
    const header = {
      jobRunId: info.ref.jobRunId,
      path: info.mask(h.path),
      sizeBytes: h.sizeBytes,
      contentSha256: h.contentSha256,
    };
    // Refused before a byte is read: bad path, size or digest, too large.
    await this.asGrpc(() => this.deps.data.artifacts.checkHeader(header));
    const data = (async function* () {
      for (let n = await it.next(); !n.done; n = await it.next()) {
        if (n.value.kind.case !== 'data') throw invalid('only data chunks may follow the artifact header');
        yield n.value.kind.value;
      }
    })();
    const stored = await this.asGrpc(() => this.deps.data.artifacts.storeArtifact(header, data));
    return { artifactId: stored.id };
  }

  /**
   * An artifact for a job's needed_artifacts: the agent must hold the job run, and the artifact must belong
   * to a run of the same project (the job's own run, or the upstream run it names).
   */
  async *downloadArtifact(
    agent: ConnectedAgent,
    req: ArtifactRequest,
  ): AsyncIterable<MessageInitShape<typeof ArtifactDataSchema>> {
    const info = await this.sessions.jobFor(agent, req.jobRunId);
    const opened = await this.deps.data.artifacts.openInProject(req.artifactId, info.ref.projectId);
    if (!opened)
      throw new ConnectError(`artifact ${cut(req.artifactId, 64)} is not available`, Code.NotFound);
    for await (const chunk of opened.stream()) yield { data: chunk as Uint8Array };
  }

  /** The project of a job the agent holds, by slug: caches are reachable only while working for it. */
  private async checkProject(agent: ConnectedAgent, key: CacheKey): Promise<void> {
    if (!key.key || key.key.length > 1000) throw invalid('cache key must be 1..1000 characters');
    for (const id of agent.leased) {
      const info = await this.deps.jobs.get(id).catch(() => undefined);
      if (info?.projectSlug === key.projectSlug) return;
    }
    throw new ConnectError(
      `the agent runs no job of project ${cut(key.projectSlug, 63)}`,
      Code.PermissionDenied,
    );
  }

  async *downloadCache(
    agent: ConnectedAgent,
    req: CacheKey,
  ): AsyncIterable<MessageInitShape<typeof CacheChunkSchema>> {
    await this.checkProject(agent, req);
    const hit = await this.deps.data.caches.lookup(req.projectSlug, req.key);
    if (!hit.found) return;
    yield { kind: { case: 'header', value: { projectSlug: req.projectSlug, key: req.key } } };
    for await (const chunk of hit.open()) yield { kind: { case: 'data', value: chunk as Uint8Array } };
  }

  async uploadCache(agent: ConnectedAgent, requests: AsyncIterable<CacheChunk>) {
    const it = requests[Symbol.asyncIterator]();
    const first = await it.next();
    if (first.done || first.value.kind.case !== 'header') throw invalid('a cache upload starts with its key');
    const { projectSlug, key } = first.value.kind.value;
    await this.checkProject(agent, first.value.kind.value);
    const data = (async function* () {
      for (let n = await it.next(); !n.done; n = await it.next()) {
        if (n.value.kind.case !== 'data') throw invalid('only data chunks may follow the cache key');
        yield n.value.kind.value;
      }
    })();
    await this.asGrpc(() => this.deps.data.caches.save(projectSlug, key, data));
    return {};
  }

  /** A refusal of the data side (size or digest mismatch, too large) reaches the agent as a gRPC error. */
  private async asGrpc<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ConnectError) throw err;
      if (err instanceof BlobRejectedError) throw new ConnectError(err.message, BLOB_CODES[err.kind]);
      if (err instanceof ServiceEventError)
        throw new ConnectError(err.message, err.kind === 'invalid' ? Code.InvalidArgument : Code.NotFound);
      this.deps.log.error({ err }, 'storing agent data failed');
      throw new ConnectError('the control plane could not store the data', Code.Internal);
    }
  }
}
