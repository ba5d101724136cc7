// Assembles the portal's HTTP app. `createPortalServer` is what main.ts runs and what tests drive.
import { mkdirSync } from 'node:fs';
import { createApp, createMetricsRegistry, deriveKey } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { ExecutionAdapter } from './agent/execution-adapter.js';
import type { AgentOptions, AgentService } from './agent/service.js';
import type { AiClient } from './ai/client.js';
import { aiOffReason } from './ai/settings.js';
import { AuditLog } from './audit/audit-log.js';
import { bootstrapAuthSecrets } from './bootstrap.js';
import { type BotApi, createBotApi } from './bot/index.js';
import type { PortalSettings } from './config.js';
import { ManagedDatasources } from './datasources/registry.js';
import { createQueryDeps } from './execution/contracts.js';
import { createGovernance, type Governance } from './governance/index.js';
import { registerAccountProvisioningRoutes } from './http/account-provisioning.js';
import { registerAgentConfigRoute } from './http/agent-config.js';
import { registerAiRoutes } from './http/ai.js';
import { registerApprovalWithdrawRoute } from './http/approval-withdraw.js';
import { registerApprovalRoutes } from './http/approvals.js';
import { registerAuditRoutes } from './http/audit.js';
import { registerAuditExportRoute } from './http/audit-export.js';
import { registerPortalAuth } from './http/auth.js';
import { registerBotSurface } from './http/bot-surface.js';
import { registerConnectionRoutes, type SessionReader } from './http/connections.js';
import { registerConnectionOperationRoutes } from './http/db-connections.js';
import { registerScriptRoutes } from './http/db-scripts.js';
import { registerExportRoutes } from './http/export.js';
import { registerFleetHealthRoute } from './http/fleet-health.js';
import { databaseRateLimit, readSession, requireSession } from './http/guard.js';
import { registerHealthRoutes } from './http/health.js';
import { registerImportRoutes } from './http/import.js';
import { registerMcpRoutes } from './http/mcp.js';
import { registerObjectRoutes } from './http/objects.js';
import { registerPortalOpenApi, registerPortalOpenApiRoute } from './http/openapi.js';
import { registerQueryRoutes } from './http/query.js';
import { PlainText } from './http/response-schemas.js';
import { registerSeedDataRoutes } from './http/seed-data.js';
import { registerStorageRoutes } from './http/storage-routes.js';
import { registerTableDataRoutes } from './http/table-data.js';
import { registerTableDesignRoutes } from './http/table-design.js';
import { registerWebUi } from './http/web.js';
import { createAccountService } from './provisioning/index.js';
import { createSeedService, type SeedService } from './seed/index.js';
import { JobWorker } from './storage/job-worker.js';
import { openPortalStore, type PortalStore } from './storage/store.js';
import { PORTAL_VERSION } from './version.js';

export interface PortalServer {
  app: FastifyInstance;
  settings: PortalSettings;
  /** Server-side storage; undefined when STORAGE_PROVIDER is local. */
  store: PortalStore | undefined;
  /** Managed datasources of PORTAL_DATASOURCES (`getManaged(id)`, `resolve(id)`). */
  datasources: ManagedDatasources;
  audit: AuditLog;
  /** Policy hooks, approvals, the concurrency limiter and the masking key (src/governance/). */
  governance: Governance;
  /** Drains the job queue (studio and worker roles, with server storage); register handlers on it. */
  jobs: JobWorker | undefined;
  /** Bot API, service tokens, callbacks and chat approvals (src/bot/, docs/portal-bot.md). */
  bot: BotApi;
  /** Seed data (src/seed/, docs/portal-seed-and-accounts.md); undefined without server storage. */
  seed: SeedService | undefined;
  /** The investigation agent; undefined while no model is configured. */
  agent: AgentService | undefined;
  listen(): Promise<number>;
  close(): Promise<void>;
}

export async function createPortalServer(
  settings: PortalSettings,
  options: {
    logger?: boolean;
    /** Bot API knobs for tests: extra CA certificates trusted for callback receivers, first retry delay. */
    bot?: { callbackCa?: string[]; callbackBackoffMs?: number; reconcileMs?: number };
    /** Agent knobs for tests: the classifier's deadline and the least time a statement needs. */
    agent?: Partial<Pick<AgentOptions, 'classifyTimeoutMs' | 'statementReserveMs'>>;
  } = {},
): Promise<PortalServer> {
  mkdirSync(settings.dataDir, { recursive: true });
  // JWT_SECRET / ADMIN_PASSWORD from the environment or generated once into the data dir (src/bootstrap.ts).
  const authSecrets = bootstrapAuthSecrets(settings);
  const metrics = createMetricsRegistry();
  // Statements may be up to 1048576 characters; JSON escaping can double that.
  const app = createApp({
    service: 'database-portal',
    errorShape: 'portal',
    logger: options.logger ?? true,
    bodyLimit: 8 * 1024 * 1024,
    // Route schemas compile on first use: ~0.4 s less before the first answer (docs/portal-runtime.md).
    lazySchemas: true,
  });
  for (const line of authSecrets.announcements) app.log.warn(line);
  // Role filter, guard, sign-in routes and pages; before every other route so their hooks run first.
  await registerPortalOpenApi(app);
  registerPortalOpenApiRoute(app);
  await registerPortalAuth(app, settings, authSecrets);
  registerHealthRoutes(app, settings);
  // Storage, managed datasources and audit (docs/portal-storage.md).
  const store = await openPortalStore(settings, { jwtSecret: authSecrets.jwtSecret });
  if (store) {
    // Replicas on one storage share "an accepted code cannot be reused" and logouts (docs/portal-auth.md).
    app.portalAuth.sessions.useState(store.sessionState);
    app.portalAuth.totp.useState(store.sessionState);
  }
  const datasources = await ManagedDatasources.open(settings.datasourcesFile, { log: app.log }).catch(
    async (err) => {
      await store?.close();
      throw err;
    },
  );
  const audit = new AuditLog({ store: store?.audit, log: app.log });
  app.portalAuth.recordSignIn = (event) => audit.record({ ...event }).then(() => undefined);
  const sessions: SessionReader = async (request) => {
    const session = await readSession(request);
    return session ? { role: session.role, username: session.username } : undefined;
  };
  registerConnectionRoutes(app, {
    sessions,
    datasources: () => datasources,
    // Read per request: the seed service (and its runs in flight) is built below, with the job queue.
    pendingSeeds: async () => (seed ? seed.pending() : []),
  });
  registerAuditRoutes(app, { sessions, audit });
  registerStorageRoutes(app, { sessions, store, isManaged: (id) => datasources.isManaged(id) });
  // Policy on every execution route, approvals, masking (docs/portal-governance.md).
  const governance = createGovernance({
    approvals: store?.approvals,
    approvalTtlHours: settings.approvalTtlHours,
    datasources,
    audit: { record: (event) => audit.record(event).then(() => undefined) },
    secret: authSecrets.jwtSecret,
    log: app.log,
  });
  registerApprovalRoutes(app, { sessions, approvals: governance.approvals });
  registerApprovalWithdrawRoute(app, {
    sessions,
    repository: store?.approvals,
    audit: { record: (event) => audit.record(event).then(() => undefined) },
  });
  // Query execution, export and the object surface (docs/portal-engines.md), rate limited per person.
  const db = await createQueryDeps({
    dataDir: settings.dataDir,
    sessions: { requireSession },
    managed: datasources,
    audit: { record: (event) => audit.record(event).then(() => undefined) },
    governance: governance.hooks,
    saved: store?.connections,
  });
  await app.register(async (scope) => {
    scope.addHook('preHandler', databaseRateLimit);
    registerQueryRoutes(scope, db);
    registerScriptRoutes(scope, db);
    registerConnectionOperationRoutes(scope, db);
    registerObjectRoutes(scope, db);
    registerTableDataRoutes(scope, db);
    registerTableDesignRoutes(scope, db);
    registerImportRoutes(scope, db);
    registerExportRoutes(scope, db);
    registerFleetHealthRoute(scope, db);
  });
  const jobs = store && settings.role !== 'agent' ? new JobWorker(store.jobs, { log: app.log }) : undefined;
  // The bot API: service tokens, /api/v1/executions, chat interactions; its jobs run where jobs run.
  const bot = createBotApi({
    settings,
    store,
    datasources,
    approvals: governance.approvals,
    providers: db.providers,
    execution: db,
    audit,
    log: app.log,
    ...options.bot,
  });
  registerBotSurface(app, bot, { tokens: store?.serviceTokens, audit });
  // The read-only execution profile the agent, the AI grounding and MCP reads share (src/agent/).
  const adapter = new ExecutionAdapter(db);
  // The MCP endpoint (studio and agent roles), on the bot API's governed path (src/mcp/).
  registerMcpRoutes(app, {
    mcp: bot.context ? { bot: bot.context, adapter, datasources, version: PORTAL_VERSION } : undefined,
    tokens: store?.serviceTokens,
  });
  // AI routes and the agent's config (docs/portal-ai.md), browser-built export auditing
  // (docs/portal-fleet-and-export-audit.md). The AI SDK, its
  // providers and the agent are loaded only when a model is configured (docs/portal-runtime.md).
  const aiOff = aiOffReason(settings);
  const ai: { client: AiClient } | { reason: string } =
    aiOff !== undefined ? { reason: aiOff } : (await import('./ai/client.js')).createAiClient(settings);
  // `npm start` keeps this in the portal's log: which model answers, or why AI is off.
  app.log.info(
    'client' in ai ? { aiProvider: ai.client.provider, aiModel: ai.client.model } : { ai: 'not configured' },
    'client' in ai ? 'AI features and the investigation agent are on' : ai.reason,
  );
  registerAiRoutes(app, { ai, adapter });
  registerAgentConfigRoute(app, { aiConfigured: 'client' in ai });
  const agent =
    'client' in ai
      ? new (await import('./agent/service.js')).AgentService({
          client: ai.client,
          adapter,
          audit,
          driveKey: deriveKey(authSecrets.jwtSecret, 'portal-agent-drive'),
          threadContext: settings.agentThreadContext,
          ...options.agent,
        })
      : undefined;
  if (agent) (await import('./http/agent.js')).registerAgentRoutes(app, agent);
  registerAuditExportRoute(app, { audit });
  if (jobs) bot.registerJobs(jobs);
  // Seed data and account provisioning (docs/portal-seed-and-accounts.md).
  const seed = createSeedService(store, {
    datasources,
    providers: db.providers,
    audit,
    log: app.log,
    wake: () => jobs?.wake(),
  });
  registerSeedDataRoutes(app, { seed });
  if (jobs) seed?.registerJobs(jobs);
  registerAccountProvisioningRoutes(app, {
    accounts: createAccountService(settings, { datasources, providers: db.providers, audit }),
  });
  const metricsSchema = {
    tags: ['health'],
    description: 'Prometheus metrics (text exposition format)',
    response: { 200: PlainText },
  };
  app.get('/metrics', { schema: metricsSchema }, async (_req, reply) =>
    reply.type(metrics.contentType).send(await metrics.metrics()),
  );
  // The web app's assets and page fallback, after every API route (src/http/web.ts, docs/portal-web.md).
  await registerWebUi(app);
  return {
    app,
    settings,
    store,
    datasources,
    audit,
    governance,
    jobs,
    bot,
    seed,
    agent,
    async listen() {
      await app.listen({ host: settings.host, port: settings.port });
      governance.start();
      if (jobs) bot.start();
      if (jobs) seed?.start();
      jobs?.start();
      const addr = app.server.address();
      return typeof addr === 'object' && addr ? addr.port : settings.port;
    },
    async close() {
      agent?.close();
      await app.close();
      governance.stop();
      bot.stop();
      seed?.stop();
      await jobs?.stop();
      await db.close();
      datasources.close();
      await store?.close();
    },
  };
}
