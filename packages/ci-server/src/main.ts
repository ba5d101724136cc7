// Entry point of the CI control plane (`npm run start:ci`): settings from the environment (and CI_CONFIG),
// first-start secrets, store, HTTP on CI_HTTP_PORT and the agent endpoint on CI_GRPC_PORT.
import { ConfigError, installCrashHandlers, installGracefulShutdown } from '@app/kit';
import { loadCiSettings } from './config.js';
import { createCiServer } from './server.js';

async function main() {
  const settings = loadCiSettings();
  const server = await createCiServer(settings);
  const log = server.app.log;
  for (const line of server.announcements) log.warn(line);
  if (!settings.authEnabled)
    log.warn('CI_AUTH_ENABLED=false: every /api/v1 route is open to anyone who can reach it');
  installCrashHandlers(server.app.log);
  // Signals are handled before listening, so a SIGTERM during start-up still drains.
  installGracefulShutdown(server.app, {
    onClose: [() => server.close()],
    log: (m) => log.info(m),
  });
  const ports = await server.listen();
  log.info(
    {
      http: `http://${settings.host}:${ports.httpPort}`,
      grpc: `${server.grpcTls ? 'https' : 'http'}://${settings.host}:${ports.grpcPort}`,
      store: server.database.displayUrl,
    },
    'CI control plane listening',
  );
  // Operators compare this with what agents pinned (or give it to them as CI_SERVER_FINGERPRINT).
  if (server.grpcTls)
    log.info(
      {
        fingerprint: server.grpcTls.fingerprint,
        source: server.grpcTls.source,
        cert: server.grpcTls.certPath,
      },
      'agent port serves TLS; certificate SHA-256 fingerprint',
    );
  else log.warn('CI_GRPC_TLS=off: the agent port speaks cleartext gRPC (credentials travel unencrypted)');
}

main().catch((err) => {
  if (err instanceof ConfigError || err?.name === 'StorageConfigError') {
    console.error(err.message);
    process.exit(2);
  }
  console.error('CI control plane failed to start:', err);
  process.exit(1);
});
