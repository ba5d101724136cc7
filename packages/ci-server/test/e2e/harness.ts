// End-to-end harness: a real control plane on loopback ports, real agent processes (the agent's bundle, as
// `npm start` runs it: kit's testing/service-command.ts), local git repositories with file:// URLs, and a
// small HTTP client for the API (bundles, triggers, runs, SSE).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@app/kit';
import { serviceArgs, tempDir } from '@app/kit/testing';
import type { AgentTiming } from '../../src/agents/control-plane.js';
import type { CiServer } from '../../src/index.js';
import { createCiServer, loadCiSettings } from '../../src/index.js';
import type { TriggerOptions } from '../../src/triggers/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The host engine, for tests that watch a job's processes and marker files from outside (host pids, files
 * outside the workspace): a sandboxed job has its own /proc and /tmp, so those would be invisible.
 */
export const HOST_ENGINE = { CI_AGENT_PLAIN_ENGINE: 'host' };
export const AGENT_TOKEN = 'e2e-agent-token';

/** Heartbeat 1 s, lease 3 s, sweep 0.5 s: a lost agent is noticed within seconds. */
export const FAST_TIMING = { heartbeatMs: 1_000, leaseMs: 3_000, sweepMs: 500 };

// ---------------------------------------------------------------- git

export interface Repo {
  dir: string;
  url: string;
  /** Commit id of the last commit. */
  head: string;
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_AUTHOR_NAME: 'e2e',
      GIT_AUTHOR_EMAIL: 'e2e@example.test',
      GIT_COMMITTER_NAME: 'e2e',
      GIT_COMMITTER_EMAIL: 'e2e@example.test',
    },
  })
    .toString()
    .trim();

/**
 * Trigger body running a repository's head commit by id. The agent's checkout of a branch name reads the
 * commit from `git rev-parse` output, which the executor can lose under load (its git helper resolves on the
 * process's exit, before stdout is drained); a commit id needs no output. Tests that are about something
 * else trigger this way; the branch path is covered by pipeline.test.ts.
 */
export const atHead = (repo: Repo) => ({ git_ref: repo.head });

/** A repository on branch main with one commit of `files`. */
export function makeRepo(files: Record<string, string | Buffer> = { 'README.md': '# e2e\n' }): Repo {
  const dir = tempDir('e2e-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return { dir, url: `file://${dir}`, head: git(dir, 'rev-parse', 'HEAD') };
}

// ---------------------------------------------------------------- server

export interface E2eServer {
  server: CiServer;
  base: string;
  httpPort: number;
  grpcPort: number;
  dataDir: string;
}

export async function startServer(
  opts: {
    dataDir?: string;
    httpPort?: number;
    grpcPort?: number;
    databaseUrl?: string;
    triggers?: TriggerOptions;
    agentTiming?: AgentTiming;
    /** Period of the log-archive pass (and so of the retention lease). */
    archiveEveryMs?: number;
    /**
     * Serve TLS on the agent port (the product's default). The other e2e tests run cleartext by explicit
     * configuration: replicas behind one balancer would otherwise each present their own self-signed
     * certificate; TLS itself is proven by test/agents/agent-tls.test.ts.
     */
    tls?: boolean;
    /** More settings (CI_GRPC_TLS_CERT, …). */
    env?: Record<string, string>;
  } = {},
): Promise<E2eServer> {
  const dataDir = opts.dataDir ?? tempDir('e2e-ci-');
  const settings = loadCiSettings({
    CI_DATA_DIR: dataDir,
    CI_HTTP_PORT: String(opts.httpPort ?? 0),
    CI_GRPC_PORT: String(opts.grpcPort ?? 0),
    CI_AGENT_TOKEN: AGENT_TOKEN,
    CI_SECRET_KEY: '1'.repeat(64),
    CI_AUTH_ENABLED: 'false',
    CI_GRPC_TLS: opts.tls ? 'on' : 'off',
    ...(opts.databaseUrl ? { CI_DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.env,
  });
  const server = await createCiServer(settings, {
    logger: false,
    agentTiming: opts.agentTiming ?? FAST_TIMING,
    triggers: opts.triggers,
    archiveEveryMs: opts.archiveEveryMs,
  });
  const { httpPort, grpcPort } = await server.listen();
  return { server, base: `http://127.0.0.1:${httpPort}`, httpPort, grpcPort, dataDir };
}

// ---------------------------------------------------------------- agents

export interface AgentProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM (drain) and wait; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  kill9(): Promise<void>;
}

const liveAgents = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveAgents) child.kill('SIGKILL');
});

export function startAgent(
  grpcPort: number,
  name: string,
  env: {
    tags?: string;
    capacity?: number;
    /** Connect over TLS (a server started with `tls: true`); else cleartext, as the harness's servers. */
    tls?: boolean;
    /** Work directory (kept across restarts of the agent: its credential and pins live there). */
    workdir?: string;
    /** Registration token; default the harness's. */
    token?: string;
    /** More variables (CI_SERVER_FINGERPRINT, CI_SERVER_CA, …). */
    extra?: Record<string, string>;
  } = {},
): AgentProcess {
  const child = spawn(process.execPath, serviceArgs('agent'), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      CI_SERVER: `${env.tls ? 'https' : 'http'}://127.0.0.1:${grpcPort}`,
      CI_AGENT_TOKEN: env.token ?? AGENT_TOKEN,
      CI_AGENT_NAME: name,
      CI_AGENT_TAGS: env.tags ?? '',
      CI_AGENT_CAPACITY: String(env.capacity ?? 2),
      CI_AGENT_WORKDIR: env.workdir ?? tempDir(`e2e-agent-${name}-`),
      ...env.extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveAgents.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      liveAgents.delete(child);
      done(code);
    }),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    name,
    child,
    output: () => output,
    exited,
    async stop(timeoutMs = 15_000) {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
    async kill9() {
      if (gone()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Waits until the control plane lists the agents as connected. */
/** The agent's exit code; fails with its output when it does not exit within `timeoutMs`. */
export async function exitCodeOf(agent: AgentProcess, timeoutMs = 60_000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${agent.name} did not exit:\n${agent.output()}`)), timeoutMs);
  });
  try {
    return await Promise.race([agent.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function waitForAgents(server: CiServer, names: string[]): Promise<void> {
  await waitFor(async () => names.every((n) => server.agents.connected().some((a) => a.name === n)), {
    what: `agents ${names.join(', ')} connected`,
    timeoutMs: 30_000,
  });
}

/** A server with one agent connected to it and an API client: how most e2e files begin. */
export interface ServerWithAgent {
  ci: E2eServer;
  client: Api;
  agent: AgentProcess;
}

/** Starts a server, then agent `name` on it, and waits until the agent is connected. */
export async function startServerWithAgent(
  name: string,
  agent: Parameters<typeof startAgent>[2] = {},
  server: Parameters<typeof startServer>[0] = {},
): Promise<ServerWithAgent> {
  const ci = await startServer(server);
  const started = startAgent(ci.grpcPort, name, agent);
  await waitForAgents(ci.server, [name]);
  return { ci, client: api(ci.base), agent: started };
}

/** Stops the agent, then its server (either may be missing when the start failed). */
export async function stopServerWithAgent(s: Partial<ServerWithAgent>): Promise<void> {
  await s.agent?.stop();
  await s.ci?.server.close();
}

// ---------------------------------------------------------------- API

export interface Api {
  get(path: string): Promise<any>;
  post(path: string, body?: unknown): Promise<{ status: number; body: any }>;
  apply(slug: string, pipelines: string[]): Promise<Record<string, string>>;
  trigger(pipelineId: string, body?: unknown): Promise<string>;
  run(runId: string, logs?: number): Promise<any>;
  waitRun(runId: string, statuses?: string[], timeoutMs?: number): Promise<any>;
  jobs(run: any): any[];
}

const indent = (doc: string) =>
  doc
    .trimEnd()
    .split('\n')
    .map((line, i) => (i === 0 ? `  - ${line}` : `    ${line}`))
    .join('\n');

export function api(base: string): Api {
  const get = async (path: string): Promise<any> => {
    const res = await fetch(base + path);
    const body: any = await res.json();
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const self: Api = {
    get,
    post,
    async apply(slug, pipelines) {
      const yaml = `project:\n  slug: ${slug}\n  name: ${slug}\npipelines:\n${pipelines.map(indent).join('\n')}\n`;
      const res = await post('/api/v1/projects/apply', { yaml });
      if (res.status !== 200) throw new Error(`apply: ${res.status} ${JSON.stringify(res.body)}`);
      const detail = await get(`/api/v1/projects/${slug}`);
      return Object.fromEntries(detail.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
    },
    async trigger(pipelineId, body) {
      const res = await post(`/api/v1/pipelines/${pipelineId}/trigger`, body);
      if (res.status !== 201) throw new Error(`trigger: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.run_id as string;
    },
    run: (runId, logs = 1000) => get(`/api/v1/runs/${runId}?logs=${logs}`),
    async waitRun(runId, statuses = ['success', 'failed', 'canceled'], timeoutMs = 60_000) {
      return waitFor(
        async () => {
          const run = await self.run(runId);
          return statuses.includes(run.status) ? run : undefined;
        },
        { what: `run ${runId} to be ${statuses.join('/')}`, timeoutMs, intervalMs: 100 },
      );
    },
    jobs: (run) => run.stages.flatMap((s: { jobs: any[] }) => s.jobs),
  };
  return self;
}

export interface SseEvent {
  event: string;
  id: string;
  data: any;
}

/** Reads a run's log stream until the server closes it; returns the events in order. */
export async function readStream(
  base: string,
  runId: string,
  lastEventId?: string,
  timeoutMs = 60_000,
): Promise<{ events: SseEvent[]; comments: number; end?: SseEvent }> {
  const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, {
    headers: lastEventId ? { 'last-event-id': lastEventId } : {},
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`);
  const text = await res.text();
  const events: SseEvent[] = [];
  // The stream's last event (`event: end`, the run's status) is kept apart from the lines.
  let end: SseEvent | undefined;
  let comments = 0;
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    const ev: Partial<SseEvent> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments++;
      else if (line.startsWith('event: ')) ev.event = line.slice(7);
      else if (line.startsWith('id: ')) ev.id = line.slice(4);
      else if (line.startsWith('data: ')) ev.data = JSON.parse(line.slice(6));
    }
    if (ev.event === 'end') end = ev as SseEvent;
    else if (ev.event) events.push(ev as SseEvent);
  }
  return { events, comments, end };
}
