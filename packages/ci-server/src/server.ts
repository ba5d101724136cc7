// Assembles the control plane: store, HTTP app and agent endpoint. `createCiServer` is what main.ts runs and
// what tests drive (with `app.inject` or on real ports).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createApp,
  createMetricsRegistry,
  createSecretBox,
  loggerOptions,
  migrateToLatest,
  openDatabase,
} from '@app/kit';
import { AgentControl, resolveAgentTiming } from './agents/control-plane.js';
import { loadAgentTls } from './agents/tls.js';
import { installAuth, recordRouteTable } from './auth/index.js';
import { openStorage, readStoredStorage, storageFromFile } from './blobs/storage-config.js';
import { AGENT_TOKEN_FILE, bootstrapSecrets, writeSecretFile } from './bootstrap.js';
import type { CiSettings } from './config.js';
import { ActiveJobs } from './dispatch/active-jobs.js';
import { AgentRegistry } from './dispatch/agent-registry.js';
import { AssignmentBuilder } from './dispatch/assignment-builder.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { JobTransitions } from './dispatch/job-transitions.js';
import { LeaseSweeper } from './dispatch/lease-sweeper.js';
import { type RunChange, RunEvents } from './events/run-events.js';
import { type Authorizer, openAuthorizer, registerAccessControl } from './http/access.js';
import { registerHealthRoutes } from './http/health.js';
import { registerIdTokenRoutes } from './http/id-token-issuer.js';
import { registerJsonBodies } from './http/json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRoutes } from './http/routes.js';
import { registerStrictQuery } from './http/strict-query.js';
import { IdTokenIssuer } from './id-tokens/issuer.js';
import { LogArchiver } from './logs/archiver.js';
import { NotificationDeliverer } from './notifications/deliverer.js';
import { ForgeStatusSender } from './notifications/forge-status/sender.js';
import { readNotificationSettings } from './notifications/settings.js';
import { ReplicaSignals } from './replicas/replica-signals.js';
import { RetentionScheduler } from './retention/retention-scheduler.js';
import { readRetentionSettings } from './retention/retention-settings.js';
import { RetentionSweeper } from './retention/retention-sweeper.js';
import type { CiServer, CreateOptions } from './server-api.js';
import { createExecutionData } from './services/execution-data.js';
import { ConcurrencyReleaser } from './services/run-concurrency.js';
import { RunService } from './services/runs.js';
import { extendLeasesAtStart } from './store/agent-leases.js';
import type { StoreSchema } from './store/database.js';
import { KnownSecrets } from './store/known-secrets.js';
import { migrations } from './store/migrations/index.js';
import { ScmCredentials } from './triggers/credentials.js';
import { Triggers } from './triggers/index.js';
import { buildInfo } from './version.js';

export type { CiServer, CreateOptions } from './server-api.js';

export async function createCiServer(settings: CiSettings, options: CreateOptions = {}): Promise<CiServer> {
  mkdirSync(settings.dataDir, { recursive: true });
  const secrets = bootstrapSecrets(settings);
  const database = openDatabase<StoreSchema>(settings.databaseUrl);
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
    logger:
      typeof options.logger === 'object'
        ? { ...loggerOptions('ci-control-plane', 'debug'), stream: options.logger }
        : (options.logger ?? true),
    bodyLimit: 10 * 1024 * 1024,
    // JSON types are checked, never coerced (issue 12): query strings are typed by http/strict-query.ts.
    coerceTypes: false,
    // Long path parameters reach their route, whose schema answers 400/404; beyond this the router's 400.
    maxParamLength: 1024,
  });
  registerJsonBodies(app);
  registerStrictQuery(app);
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
  const events = new RunEvents();
  // The storage backend is chosen once, at start: the configuration stored through the admin API wins over
  // CI_CONFIG `storage`, which wins over the data folder (blobs/storage-config.ts).
  const fileStorage = storageFromFile(settings.file, settings.dataDir);
  const storedStorage = migrated
    ? await readStoredStorage(database.db, secrets.secretKey).catch((err) => {
        app.log.error({ err }, 'stored storage configuration unreadable; CI_CONFIG storage used');
        return undefined;
      })
    : undefined;
  const storageConfig = storedStorage ?? fileStorage;
  const storage = openStorage(storageConfig);
  const retention = readRetentionSettings(settings.file, app.log);
  const execution = createExecutionData({
    database,
    dataDir: settings.dataDir,
    storage,
    secretKey: secrets.secretKey,
    registry: metrics,
  });
  // Download links use CI_PUBLIC_URL when it was set; the default (localhost) would be wrong for remote
  // clients, so then the links follow the address each request came in on.
  const publicUrl =
    settings.publicUrl === `http://localhost:${settings.httpPort}` ? undefined : settings.publicUrl;
  // The agent port's certificate: configured, kept from an earlier start, or generated now (agents/tls.ts).
  const grpcTls = settings.grpcTls
    ? await loadAgentTls({
        dataDir: settings.dataDir,
        certPath: settings.grpcTlsCert,
        keyPath: settings.grpcTlsKey,
      })
    : undefined;
  const triggers = new Triggers({
    database,
    settings,
    secretKey: secrets.secretKey,
    events,
    log: app.log,
    // Read when the scheduler asks, after the agent endpoint below exists.
    connectedAgents: () => agents.list(),
    ...options.triggers,
  });
  const runs = new RunService({
    db: database.db,
    postgres: database.dialect === 'postgres',
    events,
    resolveHead: triggers.resolveHead,
  });
  const concurrency = new ConcurrencyReleaser({ db: database.db, events, log: app.log });

  // gocdnext's id_tokens: the issuer is the public URL; its keys are made at first use (id-tokens/issuer.ts).
  const idTokens = new IdTokenIssuer({
    db: database.db,
    box: createSecretBox(secrets.secretKey),
    issuer: settings.publicUrl,
  });

  // Dispatch: queued jobs to free agents, agents' reports into the state machine, lapsed leases swept. It
  // knows agents only through the port the gRPC face below implements (dispatch/agent-registry.ts).
  const db = database.db;
  const timing = resolveAgentTiming(options.agentTiming);
  const agents = new AgentRegistry();
  const batching = options.dispatchBatching ?? settings.dispatchBatching;
  const transitions = new JobTransitions({ db, postgres: database.dialect === 'postgres', events, batching });
  const builder = new AssignmentBuilder(db, createSecretBox(secrets.secretKey), idTokens);
  const jobs = new ActiveJobs(builder);
  // Server notices have their own (negative) sequence space: no agent line is ever displaced by one.
  const systemLine = (jobRunId: string, text: string) => execution.logs.appendNotice(jobRunId, text);
  const dispatcher = new Dispatcher({
    db,
    registry: agents,
    builder,
    transitions,
    jobs,
    metrics: execution.metrics,
    leaseMs: timing.leaseMs,
    log: app.log,
    systemLine,
    coalesce: batching,
  });
  const leaseSweeper = new LeaseSweeper({
    db,
    dispatcher,
    transitions,
    builder,
    leaseMs: timing.leaseMs,
    intervalMs: timing.sweepMs,
    log: app.log,
    systemLine,
  });
  const control = new AgentControl({
    database,
    registry: agents,
    dispatcher,
    transitions,
    jobs,
    data: execution,
    agentToken: secrets.agentToken,
    // A generated token lives in the data-dir file `npm start` hands to its agent: keep it current.
    onTokenRotated: settings.agentToken
      ? undefined
      : (token) => writeSecretFile(join(settings.dataDir, AGENT_TOKEN_FILE), token),
    tls: grpcTls,
    log: app.log,
    timing,
    systemLine,
    // Sweep right after the grace, so a dead agent's job is back in the queue within seconds.
    onDropped: (graceMs) => setTimeout(() => void leaseSweeper.tick(), graceMs + 100).unref(),
  });
  // Several replicas share one PostgreSQL; SQLite is one server, so nothing is announced there.
  const replicas =
    database.dialect === 'postgres'
      ? new ReplicaSignals({
          url: settings.databaseUrl,
          events,
          hub: execution.hub,
          resync: () => dispatcher.resync(),
          log: app.log,
        })
      : undefined;
  // Who hears run events (events/run-events.ts): every subscriber, here and nowhere else
  // (test/house/run-event-subscribers.test.ts). `change` is this process's commits, `remote` another
  // replica's (received by `replicas`):
  // - the dispatcher: jobs to queue, agents to tell to cancel, finished runs' leftovers (both kinds);
  // - live log followers: a finished run ends its streams at once (both kinds);
  // - fan-in: a finished stage may start downstream runs (this process's only: it writes the store);
  // - the concurrency releaser: a finished run may start its group's next (this process's only: it writes);
  // - the replica relay: this process's changes told to the other replicas (PostgreSQL only).
  const wakeFollowers = (change: RunChange) => {
    if (change.effects.some((e) => e.kind === 'run-finished')) execution.hub.wake(change.runId);
  };
  for (const kind of ['change', 'remote'] as const) {
    events.on(kind, (change) => dispatcher.onRunChange(change));
    events.on(kind, wakeFollowers);
  }
  events.on('change', (change) => triggers.fanIn.onRunChange(change));
  events.on('change', (change) => concurrency.onRunChange(change));
  if (replicas) events.on('change', (change) => replicas.announceChange(change));
  const archiver = new LogArchiver({
    db: database.db,
    storage,
    tmpDir: join(settings.dataDir, 'tmp', 'logs'),
    globalPolicy: retention.logArchive,
    count: (result) => execution.metrics.logArchiveJobs.inc({ result }),
    log: app.log,
  });
  const sweeper = new RetentionSweeper({
    db: database.db,
    storage,
    quotas: retention.quotas,
    archives: execution.archives,
    droppedPartitions: (n) => execution.metrics.retentionDroppedLogPartitions.inc(n),
    log: app.log,
  });
  const notificationSettings = {
    ...readNotificationSettings(settings.file, process.env, app.log),
    ...options.notifications,
  };
  const deliverer = new NotificationDeliverer({
    db: database.db,
    settings: notificationSettings,
    publicUrl: settings.publicUrl,
    pollMs: options.notificationPollMs,
    log: app.log,
    secrets: new KnownSecrets(database.db, createSecretBox(secrets.secretKey)),
    forge: new ForgeStatusSender(
      database.db,
      createSecretBox(secrets.secretKey),
      new ScmCredentials(database.db, createSecretBox(secrets.secretKey)),
    ),
  });
  const retentionScheduler = new RetentionScheduler({
    db: database.db,
    archiver,
    sweeper,
    intervalMs: retention.intervalMs,
    archiveEveryMs: options.archiveEveryMs ?? retention.archiveIntervalMs,
    log: app.log,
  });
  registerIdTokenRoutes(app, idTokens);
  // Every route module, in order (http/routes.ts); the web UI's page fallback comes last.
  await registerRoutes(app, {
    auth: auth.context,
    api: {
      agentAdmin: {
        revoke: (id) => control.revoke(id),
        rotateRegistrationToken: () => control.identity.rotate(),
      },
      database,
      secretKey: secrets.secretKey,
      runs,
      events,
      execution: { data: execution, publicUrl, pollMs: options.logPollMs },
      operator: {
        file: settings.file,
        log: app.log,
        retention,
        blobs: storage,
        webhooksSigned: Boolean(notificationSettings.signingSecret),
        storage: {
          secretKey: secrets.secretKey,
          running: storageConfig,
          fallback: { config: fileStorage, source: settings.file.storage ? 'config' : 'default' },
        },
      },
    },
    triggers: { triggers, publicUrl: settings.publicUrl },
  });
  let listening = false;

  return {
    app,
    database,
    agents,
    control,
    idTokens,
    dispatch: { transitions, sweeper: leaseSweeper, jobs },
    runs,
    concurrency,
    events,
    execution,
    triggers,
    retention: { archiver, sweeper, scheduler: retentionScheduler },
    notifications: deliverer,
    replicas,
    settings,
    grpcTls: grpcTls && {
      cert: grpcTls.cert,
      fingerprint: grpcTls.fingerprint,
      source: grpcTls.source,
      certPath: grpcTls.certPath,
    },
    announcements: secrets.announcements,
    setAuthorizer(next) {
      authorizer = next;
    },
    async listen() {
      await app.listen({ host: settings.host, port: settings.httpPort });
      // Listening before the agent endpoint starts: its first sweep resyncs whatever came before.
      await replicas?.start();
      // A restarted server gives its agents a full lease period to come back before it sweeps.
      await extendLeasesAtStart(db, timing.leaseMs);
      dispatcher.start();
      leaseSweeper.start();
      const grpcPort = await control.start(settings.host, settings.grpcPort);
      listening = true;
      // Jobs queued before this process started (or while it was down) go to the first free agents.
      await leaseSweeper.tick();
      triggers.start();
      concurrency.start();
      retentionScheduler.start();
      deliverer.start();
      const httpAddr = app.server.address();
      return {
        httpPort: typeof httpAddr === 'object' && httpAddr ? httpAddr.port : settings.httpPort,
        grpcPort,
      };
    },
    async close() {
      await replicas?.stop();
      await deliverer.stop();
      await retentionScheduler.stop();
      await triggers.stop();
      await concurrency.stop();
      if (listening) {
        dispatcher.stop();
        await leaseSweeper.stop();
        await control.stop();
      }
      await app.close();
      await database.close();
    },
  };
}
