// What the core route modules share: the typed Fastify instance, the services they call, who the caller
// is, and the multipart limits. Kept apart from api.ts so route modules do not import their registrar.
import type { createSecretBox } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ArchivedLogs } from '../logs/archived-logs.js';
import type { Decider } from '../services/gate-approvers.js';
import type { RunService } from '../services/runs.js';
import { findUserById } from '../store/auth-users.js';
import type { StoreDb } from '../store/database.js';
import type { PipelineNames } from '../store/pipeline-names.js';

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface ApiContext {
  db: StoreDb;
  postgres: boolean;
  runs: RunService;
  box: ReturnType<typeof createSecretBox>;
  names: PipelineNames;
  /** Archived job logs, read by RunDetail (absent when the API runs without execution data). */
  archives?: ArchivedLogs;
}

/** Who did it, for `triggered_by` and gate decisions. */
export function actorOf(request: FastifyRequest): string {
  return request.principal?.username || 'anonymous';
}

/** Who decides a gate: name, role and e-mail (a gate may name its approvers by address). */
export async function deciderOf(request: FastifyRequest, db: StoreDb): Promise<Decider> {
  const p = request.principal;
  if (!p || p.kind === 'anonymous')
    return { username: actorOf(request), role: p?.role ?? 'admin', email: null, anonymous: true };
  const user = p.kind === 'service_account' ? undefined : await findUserById(db, p.id);
  return { username: p.username, role: p.role, email: user?.email ?? null, anonymous: false };
}

/** Limits of the multipart apply: enough for a large project, bounded in memory. */
export const MULTIPART_LIMITS = {
  fileSize: 1024 * 1024,
  files: 200,
  fields: 10,
  fieldSize: 64 * 1024,
  parts: 220,
  headerPairs: 100,
};
