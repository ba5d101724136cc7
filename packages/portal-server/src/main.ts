// Entry point of the database portal (`npm run start:portal`).
import { ConfigError, installCrashHandlers, installGracefulShutdown } from '@app/kit';
import { StartupError } from './bootstrap.js';
import { loadPortalSettings } from './config.js';
import { createPortalServer } from './server.js';

async function main() {
  const settings = loadPortalSettings();
  const server = await createPortalServer(settings);
  installCrashHandlers(server.app.log);
  // Signals are handled before listening, so a SIGTERM during start-up still drains.
  installGracefulShutdown(server.app, {
    onClose: [() => server.close()],
    log: (m) => server.app.log.info(m),
  });
  const port = await server.listen();
  server.app.log.info(
    { url: `http://${settings.host}:${port}`, role: settings.role, storage: settings.storageProvider },
    'database portal listening',
  );
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    // A configuration that must refuse to boot (e.g. JWT_SECRET missing with AUTH_BOOTSTRAP=off) exits 1,
    // the one start-up failure code the spec names for the portal.
    console.error(err.message);
    process.exit(1);
  }
  if (err instanceof StartupError) {
    // e.g. a JWT_SECRET under 32 characters: the spec's exit code 1, with a message and no stack.
    console.error(`database portal cannot start: ${err.message}`);
    process.exit(1);
  }
  console.error('database portal failed to start:', err);
  process.exit(1);
});
