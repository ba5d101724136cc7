// Registers the core /api/v1 routes (projects, apply, pipelines, runs, job runs, secrets, the bundle schema
// and the OpenAPI description) in one encapsulated plugin with multipart parsing and readable validation
// messages. The run service and its event feed are built by server.ts and passed in.

import { createSecretBox, type Database } from '@app/kit';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { RunEvents } from '../events/run-events.js';
import type { ExecutionData } from '../services/execution-data.js';
import type { RunService } from '../services/runs.js';
import type { StoreSchema } from '../store/database.js';
import { PipelineNames } from '../store/pipeline-names.js';
import { type AgentAdmin, registerAdminAgentRoutes } from './admin/agents.js';
import { registerAgentRoutes } from './agents.js';
import { registerApplyRoute } from './apply.js';
import { registerArtifactRoutes } from './artifacts.js';
import { type ApiContext, MULTIPART_LIMITS } from './context.js';
import { registerForgeStatusRoutes } from './forge-status.js';
import { registerJobRunRoutes } from './job-runs.js';
import { registerLogStreamRoute } from './logs-stream.js';
import { registerOpenApiRoute } from './openapi.js';
import { type OperatorRouteDeps, registerOperatorRoutes } from './operator-routes.js';
import { registerPipelineBadge } from './pipeline-badge.js';
import { registerPipelineRoutes } from './pipelines.js';
import { registerProjectRoutes } from './projects.js';
import { registerRunRoutes } from './runs.js';
import { registerSecretRoutes } from './secrets.js';
import { registerServiceRoutes } from './services.js';
import { registerStrictBodies } from './strict-body.js';
import { registerTestReportRoutes } from './test-reports.js';
import { schemaErrorFormatter } from './validation.js';

export interface ApiDeps {
  database: Database<StoreSchema>;
  /** 64 hex characters: the key of the secret box sealing project secrets. */
  secretKey: string;
  /** Creates, transitions and lists runs (services/runs.ts), over the same database. */
  runs: RunService;
  events: RunEvents;
  /** Logs, artifacts, tests, services and agents routes (docs/ci-logs-artifacts.md). */
  execution?: {
    data: ExecutionData;
    /** CI_PUBLIC_URL when set explicitly: the address of artifact download links. */
    publicUrl?: string;
    keepAliveMs?: number;
    pollMs?: number;
  };
  /** Plugin catalog, project log-archive/notifications/caches, admin retention and storage. */
  operator?: OperatorRouteDeps;
  /** Agent revocation and registration-token rotation (the agent side exists once the server runs). */
  agentAdmin?: AgentAdmin;
}

export async function registerApi(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const postgres = deps.database.dialect === 'postgres';
  const ctx: ApiContext = {
    db: deps.database.db,
    postgres,
    runs: deps.runs,
    box: createSecretBox(deps.secretKey),
    names: new PipelineNames(),
    archives: deps.execution?.data.archives,
  };
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    api.setSchemaErrorFormatter(schemaErrorFormatter);
    registerStrictBodies(api);
    await api.register(multipart, { limits: MULTIPART_LIMITS });
    // JSON bodies are read by http/json-body.ts for the whole app (UTF-8, depth, empty body).
    registerProjectRoutes(api, ctx);
    registerApplyRoute(api, ctx);
    registerPipelineRoutes(api, ctx);
    registerPipelineBadge(api, ctx);
    registerRunRoutes(api, ctx);
    registerJobRunRoutes(api, ctx);
    registerSecretRoutes(api, ctx);
    registerForgeStatusRoutes(api, ctx);
    if (deps.execution) {
      const { data, ...sse } = deps.execution;
      registerLogStreamRoute(api, { db: ctx.db, data, ...sse });
      registerArtifactRoutes(api, { db: ctx.db, data, publicUrl: deps.execution.publicUrl });
      registerTestReportRoutes(api, data);
      registerServiceRoutes(api, data);
      registerAgentRoutes(api, ctx.db);
    }
    if (deps.operator) registerOperatorRoutes(api, ctx.db, deps.operator);
    if (deps.agentAdmin) registerAdminAgentRoutes(api, deps.agentAdmin);
    registerOpenApiRoute(api);
  });
}
