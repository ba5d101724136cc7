// Dispatch test helpers: a control plane on SQLite or a fresh PostgreSQL database with short agent timing,
// simulated agents speaking the real gRPC protocol in-process (AgentConnection of @app/ci-agent), and
// pipelines applied through the API.
import { AgentConnection, loadAgentSettings } from '@app/ci-agent';
import type { JobAssignment, ServerMessage } from '@app/ci-proto';
import { waitFor } from '@app/kit';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterEach, inject } from 'vitest';
import type { AgentTiming } from '../../src/agents/control-plane.js';
import { type CiServer, createCiServer, loadCiSettings } from '../../src/index.js';

export type StoreKind = 'sqlite' | 'postgres';
export const STORES: StoreKind[] = ['sqlite', 'postgres'];
export const TOKEN = 'dispatch-token';
export const TIMING: AgentTiming = { heartbeatMs: 200, leaseMs: 800, sweepMs: 100 };

export async function databaseUrl(kind: StoreKind): Promise<string> {
  return kind === 'sqlite'
    ? `sqlite:${tempDir('dispatch-')}/ci.db`
    : createPostgresDatabase(inject('services').postgresUrl, 'ci_dispatch');
}

export interface Started {
  server: CiServer;
  grpcPort: number;
  inject(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function startServer(url: string, timing: AgentTiming = TIMING): Promise<Started> {
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('dispatch-data-'),
    CI_DATABASE_URL: url,
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: TOKEN,
    CI_SECRET_KEY: '2'.repeat(64),
    CI_AUTH_ENABLED: 'false',
  });
  const server = await createCiServer(settings, { logger: false, agentTiming: timing });
  const { grpcPort } = await server.listen();
  return {
    server,
    grpcPort,
    async inject(method, path, body) {
      const res = await server.app.inject({
        method: method as 'GET',
        url: path,
        ...(body === undefined
          ? {}
          : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      return { status: res.statusCode, body: res.body ? res.json() : undefined };
    },
  };
}

/** Applies one pipeline (YAML of a pipeline document) as project `slug`; returns its id. */
export async function applyPipeline(s: Started, slug: string, doc: string): Promise<string> {
  const yaml = `project:\n  slug: ${slug}\n  name: ${slug}\npipelines:\n${doc
    .trimEnd()
    .split('\n')
    .map((l, i) => (i === 0 ? `  - ${l}` : `    ${l}`))
    .join('\n')}\n`;
  const res = await s.inject('POST', '/api/v1/projects/apply', { yaml });
  if (res.status !== 200) throw new Error(`apply: ${JSON.stringify(res.body)}`);
  const detail = await s.inject('GET', `/api/v1/projects/${slug}`);
  return detail.body.pipelines[0].id;
}

export async function trigger(s: Started, pipelineId: string, body?: unknown): Promise<string> {
  const res = await s.inject('POST', `/api/v1/pipelines/${pipelineId}/trigger`, body);
  if (res.status !== 201) throw new Error(`trigger: ${JSON.stringify(res.body)}`);
  return res.body.run_id;
}

export async function waitRun(s: Started, runId: string, statuses = ['success', 'failed', 'canceled']) {
  return waitFor(
    async () => {
      const res = await s.inject('GET', `/api/v1/runs/${runId}?logs=100`);
      return statuses.includes(res.body.status) ? res.body : undefined;
    },
    { what: `run ${runId} ${statuses.join('/')}`, timeoutMs: 30_000, intervalMs: 50 },
  );
}

export const jobsOf = (run: any): any[] => run.stages.flatMap((s: any) => s.jobs);

export const PIPE = (body: string, extra = '') => `name: p
materials:
  - git: { url: "https://git.example.test/repo.git", branch: main }
${extra}stages: [build]
jobs:
${body}`;

export interface SimOptions {
  tags?: string;
  capacity?: number;
  /** Engines reported at registration (none: an agent from before engines, counted as `host`). */
  engines?: string[];
  /** Report every assignment started and then finished with this result right away. */
  auto?: 'success' | 'failed';
}

/** An in-process agent speaking the real protocol; it never runs anything, it reports what it is told. */
export class SimAgent {
  readonly conn: AgentConnection;
  readonly assignments: JobAssignment[] = [];
  readonly cancels: string[] = [];
  readonly held = new Set<string>();
  private run?: Promise<void>;
  registered = 0;
  registeredCancels: string[] = [];

  constructor(
    grpcPort: number,
    readonly name: string,
    private readonly opts: SimOptions = {},
  ) {
    this.conn = new AgentConnection(
      loadAgentSettings({
        CI_SERVER: `127.0.0.1:${grpcPort}`,
        CI_AGENT_TOKEN: TOKEN,
        CI_AGENT_NAME: name,
        CI_AGENT_TAGS: opts.tags ?? '',
        CI_AGENT_CAPACITY: String(opts.capacity ?? 1),
      }),
      {
        onRegistered: (info) => {
          this.registered++;
          this.registeredCancels.push(...info.cancelJobIds);
        },
        onServerMessage: (m) => this.onMessage(m),
      },
    );
    this.conn.runningJobIds = () => [...this.held];
    this.conn.engines = opts.engines ?? [];
  }

  start(): this {
    this.run = this.conn.run();
    return this;
  }

  async ready(): Promise<void> {
    await this.conn.session();
  }

  private onMessage(m: ServerMessage): void {
    if (m.kind.case === 'assignment') {
      const a = m.kind.value;
      this.assignments.push(a);
      this.held.add(a.jobRunId);
      // A simulated agent stopped mid-job leaves its report unsent, as a killed agent would; the run's
      // status (asserted by the tests) shows what that costs, so the rejected call is not an error here.
      if (this.opts.auto)
        void this.started(a.jobRunId)
          .then(() => this.finish(a.jobRunId, this.opts.auto))
          .catch(() => undefined);
    } else if (m.kind.case === 'cancel') this.cancels.push(m.kind.value.jobRunId);
    else if (m.kind.case === 'heartbeatAck') this.cancels.push(...m.kind.value.cancelJobIds);
  }

  async started(jobRunId: string): Promise<void> {
    await this.conn.call((o) =>
      this.conn.client.reportJob(
        { jobRunId, kind: { case: 'started', value: { engine: this.opts.engines?.[0] ?? '' } } },
        o,
      ),
    );
  }

  async finish(jobRunId: string, status: 'success' | 'failed' | 'canceled' = 'success', exitCode = 0) {
    // Done before the report: the server frees the slot (and may assign again) before the call returns.
    this.held.delete(jobRunId);
    await this.conn.call((o) =>
      this.conn.client.reportJob(
        {
          jobRunId,
          kind: {
            case: 'finished',
            value: {
              status,
              hasExitCode: true,
              exitCode,
              error: status === 'success' ? '' : `exit code ${exitCode}`,
            },
          },
        },
        o,
      ),
    );
  }

  async stop(): Promise<void> {
    this.conn.stop();
    await this.run;
  }
}

/**
 * A list the calling test file pushes its servers' and agents' stops onto; after each test they run, the last
 * first. Called at the top of a test file (the shared module cache evaluates this module once for all files,
 * so the hook cannot be registered here at import).
 */
export function cleanupsAfterEach(): (() => Promise<void>)[] {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}
