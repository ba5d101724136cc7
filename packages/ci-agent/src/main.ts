// Entry point of the build agent (`npm run start:agent`): connects out to the control plane, keeps the
// connection (retrying with backoff while the server is unreachable) and runs the jobs it is given. SIGTERM
// or SIGINT drains: no new jobs, running ones finish and are reported, then the agent exits. A second
// signal stops the jobs' processes at once and exits; the server re-queues those jobs when their leases
// lapse. At start it detects its engines (podman, the bubblewrap sandbox; the host only by opt-in),
// sweeps containers a killed predecessor left, and reports the engines when it registers. The agent keeps
// its credential and the server's pinned certificate in CI_AGENT_WORKDIR/agent-identity.json (hidden from
// every job: docs/ci-agent.md); a refused credential (revoked) or a changed certificate is logged
// and the agent exits with code 3.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@app/kit';
import { loadAgentSettings } from './config.js';
import { AgentConnection } from './connection.js';
import { detectEngines, enginesOf, sweepEngines } from './executor/engine.js';
import { JobExecutor } from './executor/execute-job.js';
import { GrpcCacheStore } from './grpc-cache-store.js';
import { FileIdentityStore, IDENTITY_FILE } from './identity-file.js';
import { Worker, type WorkerLog } from './worker.js';

const log: WorkerLog = (level, msg, extra = {}) => {
  process.stdout.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), service: 'ci-agent', msg, ...extra })}\n`,
  );
};

async function main() {
  const settings = loadAgentSettings();
  mkdirSync(settings.workdir, { recursive: true });
  // Engines are detected once: what this machine can run is reported at registration.
  const detected = await detectEngines({
    workdir: settings.workdir,
    plain: settings.plainEngine,
    hide: settings.sandboxHide,
    expose: settings.sandboxExpose,
    podman: settings.podman,
    runtime: settings.podmanRuntime,
    ulimits: settings.containerUlimits,
    cpus: settings.containerCpus,
    memory: settings.containerMemory,
    pids: settings.containerPids || undefined,
  });
  for (const problem of detected.problems) log('warn', problem);
  const engines = enginesOf(detected.settings);
  if (settings.plainEngine === 'host')
    log('warn', 'jobs without an image run directly on this host (CI_AGENT_PLAIN_ENGINE=host): no isolation');
  // Containers and networks a previous life of this agent left (killed with SIGKILL) go before any job.
  const swept = await sweepEngines(detected.settings);
  if (swept.containers + swept.networks + swept.secrets > 0)
    log('info', 'removed leftover containers, networks and env secrets', swept);
  log('info', 'agent starting', {
    name: settings.name,
    server: settings.serverUrl,
    tags: settings.tags,
    capacity: settings.capacity,
    engines,
  });
  let worker: Worker | undefined;
  const connection = new AgentConnection(
    settings,
    {
      onRegistered: ({ agentId, cancelJobIds }) => {
        log('info', `registered with the control plane at ${settings.serverUrl}`, { agentId });
        worker?.onRegistered(cancelJobIds);
      },
      onUnreachable: ({ attempt, retryInMs, reason }) =>
        log(
          'warn',
          `cannot reach the control plane at ${settings.serverUrl}: ${reason}; retrying in ${Math.round(retryInMs / 100) / 10}s`,
          { attempt },
        ),
      onRejected: ({ attempt, retryInMs, reason }) =>
        log(
          'error',
          `the control plane refused registration: ${reason}; check CI_AGENT_TOKEN (it may have been rotated; retrying in ${Math.round(retryInMs / 1000)}s)`,
          { attempt },
        ),
      onServerMessage: (message) => worker?.onServerMessage(message),
      onPinned: ({ server, fingerprint }) =>
        log('warn', `trusting the control plane's TLS certificate on first use (pinned for ${server})`, {
          fingerprint,
        }),
      onFatal: ({ reason }) => {
        log('error', `${reason}; the agent stops`);
        worker?.abort();
      },
    },
    { identity: new FileIdentityStore(join(settings.workdir, IDENTITY_FILE)) },
  );
  connection.engines = engines;
  const executor = new JobExecutor({
    workdir: settings.workdir,
    cacheStore: new GrpcCacheStore(connection),
    engines: detected.settings,
  });
  worker = new Worker(settings.capacity, connection, executor, log);
  const running = connection.run();
  void running.then(() => {
    // Stopped for good (not by a signal): exit once the jobs' processes had a moment to stop.
    if (!connection.fatal) return;
    process.exitCode = 3;
    setTimeout(() => process.exit(3), 500).unref();
  });

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) {
      log(
        'info',
        `${signal} received; draining (${worker.running} job(s) running; send it again to stop now)`,
      );
      worker
        .drain()
        .then(() => log('info', 'drained; stopping'))
        .finally(() => {
          connection.stop();
          void running.then(() => process.exit(0));
        });
    } else {
      log('warn', `${signal} received again; stopping the jobs' processes and exiting`);
      worker.abort();
      connection.stop();
      // The jobs' process groups get SIGTERM now; give them a moment before leaving.
      setTimeout(() => process.exit(1), 2_000).unref();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
});
