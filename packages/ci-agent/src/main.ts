// Entry point of the build agent (`npm run start:agent`): connects out to the control plane and keeps the
// connection, retrying with backoff while the server is unreachable. SIGINT/SIGTERM stop it cleanly.
import { mkdirSync } from 'node:fs';
import { ConfigError } from '@app/kit';
import { loadAgentSettings } from './config.js';
import { AgentConnection } from './connection.js';

function log(level: string, msg: string, extra: Record<string, unknown> = {}) {
  process.stdout.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), service: 'ci-agent', msg, ...extra })}\n`,
  );
}

function main() {
  const settings = loadAgentSettings();
  mkdirSync(settings.workdir, { recursive: true });
  log('info', 'agent starting', {
    name: settings.name,
    server: settings.serverUrl,
    tags: settings.tags,
    capacity: settings.capacity,
  });
  const connection = new AgentConnection(settings, {
    onRegistered: ({ agentId }) =>
      log('info', `registered with the control plane at ${settings.serverUrl}`, { agentId }),
    onUnreachable: ({ attempt, retryInMs, reason }) =>
      log(
        'warn',
        `cannot reach the control plane at ${settings.serverUrl}: ${reason}; retrying in ${Math.round(retryInMs / 100) / 10}s`,
        { attempt },
      ),
    onRejected: ({ attempt, retryInMs, reason }) =>
      log(
        'error',
        `the control plane refused registration: ${reason}; check CI_AGENT_TOKEN (retrying in ${Math.round(retryInMs / 1000)}s)`,
        { attempt },
      ),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log('info', `${signal} received; stopping`);
      connection.stop();
    });
  }
  connection.run().then(() => process.exit(0));
}

try {
  main();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
