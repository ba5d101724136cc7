// Assembles the control plane: store, HTTP app and agent endpoint. `createCiServer` is what main.ts runs and
// what tests drive (with `app.inject` or on real ports).
import { mkdirSync } from 'node:fs';
import type { Http2Server } from 'node:http2';
import { createApp, createMetricsRegistry, type Database, migrateToLatest, openDatabase } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { closeAgentServer, startAgentServer } from './agents/grpc-server.js';
import { AgentRegistry } from './agents/registry.js';
import { installAuth, recordRouteTable } from './auth/index.js';
import { bootstrapSecrets } from './bootstrap.js';
import type { CiSettings } from './config.js';
import { type Authorizer, openAuthorizer, registerAccessControl } from './http/access.js';
import { registerApi } from './http/api.js';
import { registerHealthRoutes } from './http/health.js';
import { registerOpenApi } from './http/openapi.js';
import { migrations } from './store/migrations/index.js';
import { buildInfo } from './version.js';

export interface CiServer {
  app: FastifyInstance;
  database: Database;
  agents: AgentRegistry;
  settings: CiSettings;
  announcements: string[];
  /** Replaces how /api/v1 requests are authorized (the default opens everything). */
  setAuthorizer(next: Authorizer): void;
  /** Listens on the HTTP and gRPC ports of the settings. */
  listen(): Promise<{ httpPort: number; grpcPort: number }>;
  close(): Promise<void>;
}

export interface CreateOptions {
  logger?: boolean;
}

export async function createCiServer(settings: CiSettings, options: CreateOptions = {}): Promise<CiServer> {
  mkdirSync(settings.dataDir, { recursive: true });
  const secrets = bootstrapSecrets(settings);
  const database = openDatabase(settings.databaseUrl);
  // A store that cannot be reached at start is reported by /readyz rather than crashing the process, so an
  // orchestrator sees the reason; migrations are retried when the database comes back.
  let migrated = false;
  const migrate = async () => {
    if (migrated) return;
    await migrateToLatest(database.db, migrations);
    migrated = true;
  };
  await migrate().catch(() => {});

  const metrics = createMetricsRegistry();
  const app = createApp({
    service: 'ci-control-plane',
    errorShape: 'ci',
    logger: options.logger ?? true,
    bodyLimit: 10 * 1024 * 1024,
  });
  let authorizer: Authorizer = openAuthorizer;
  registerAccessControl(app, () => authorizer);
  recordRouteTable(app);
  if (!migrated) app.addHook('onRequest', async () => void (await migrate().catch(() => {})));
  // Before any route: the OpenAPI description is collected as routes are added.
  await registerOpenApi(app);
  registerHealthRoutes(app, { db: database.db, migrations, metrics, build: buildInfo() });
  // Before the other routes: its audit hooks must be inherited by every plugin registered after it.
  const auth = await installAuth({
    app,
    database,
    settings,
    secretKey: secrets.secretKey,
    ensureMigrated: migrate,
    announcements: secrets.announcements,
    storeReady: migrated,
  });
  // CI_AUTH_ENABLED=false keeps the open authorizer (main.ts logs the warning).
  if (settings.authEnabled) authorizer = auth.authorizer;
  await registerApi(app, { database, secretKey: secrets.secretKey });

  const agents = new AgentRegistry();
  let grpc: Http2Server | undefined;

  return {
    app,
    database,
    agents,
    settings,
    announcements: secrets.announcements,
    setAuthorizer(next) {
      authorizer = next;
    },
    async listen() {
      await app.listen({ host: settings.host, port: settings.httpPort });
      grpc = await startAgentServer(
        { registry: agents, agentToken: secrets.agentToken },
        settings.host,
        settings.grpcPort,
      );
      const httpAddr = app.server.address();
      const grpcAddr = grpc.address();
      return {
        httpPort: typeof httpAddr === 'object' && httpAddr ? httpAddr.port : settings.httpPort,
        grpcPort: typeof grpcAddr === 'object' && grpcAddr ? grpcAddr.port : settings.grpcPort,
      };
    },
    async close() {
      await app.close();
      if (grpc) await closeAgentServer(grpc);
      await database.close();
    },
  };
}
