// Entry point of the database portal (`npm run start:portal`).
import { ConfigError, installGracefulShutdown } from '@app/kit';
import { loadPortalSettings } from './config.js';
import { createPortalServer } from './server.js';

async function main() {
  const settings = loadPortalSettings();
  const server = await createPortalServer(settings);
  const port = await server.listen();
  server.app.log.info(
    { url: `http://${settings.host}:${port}`, role: settings.role, storage: settings.storageProvider },
    'database portal listening',
  );
  installGracefulShutdown(server.app, {
    onClose: [() => server.close()],
    log: (m) => server.app.log.info(m),
  });
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error('database portal failed to start:', err);
  process.exit(1);
});
