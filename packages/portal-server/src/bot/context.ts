// What the bot API's parts share: their dependencies (one object built in index.ts), the token as a policy
// principal, the lookup of a managed datasource for a token (404 unknown or not visible to its role, 503
// unavailable, 403 not on its allowlist) and the classification of a statement (the verdict on it is the
// pipeline's: runner.ts judgeSubmission and executeNow).

import { HttpError } from '@app/kit';
import type { Principal } from '../auth/principal.js';
import type { ManagedDatasource, ManagedEntry } from '../datasources/types.js';
import type { PipelineDeps } from '../execution/pipeline.js';
import type { ApprovalService } from '../governance/approvals.js';
import {
  classifyScript,
  type Dialect,
  isClassifierDialect,
  type ScriptClassification,
} from '../governance/classify/index.js';
import { splitStatements } from '../governance/classify/split.js';
import type { ProviderCache } from '../providers/cache.js';
import type { JobQueue } from '../storage/jobs.js';
import type { ServiceToken, ServiceTokenRepository } from '../storage/service-tokens.js';
import type { BotRequestRepository } from './store.js';
import type { HostRule } from './validate.js';

export interface BotAudit {
  record(event: {
    type: string;
    actor?: string | null;
    connection?: string | null;
    result?: 'success' | 'failure';
    [field: string]: unknown;
  }): unknown;
}

export interface BotLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface BotContext {
  requests: BotRequestRepository;
  tokens: ServiceTokenRepository;
  jobs: JobQueue;
  approvals: ApprovalService;
  datasources: { resolve(id: string): ManagedEntry | undefined };
  providers: ProviderCache;
  /** The governed execution pipeline's dependencies: every bot run goes through `executeGoverned`. */
  execution: PipelineDeps;
  audit: BotAudit;
  log: BotLog;
  callbacks: {
    /** CALLBACK_SIGNING_SECRET; callbacks are refused (400) without it. */
    secret?: string;
    hosts: HostRule[];
    /** Extra trusted CA certificates (PEM) for receivers; tests only. */
    ca?: string[];
    /** First retry delay (default 1000 ms; tests use 0). */
    backoffMs: number;
  };
  /** Chat announcements are on (CHAT_BOT_TOKEN set). */
  chatEnabled: boolean;
  /** Nudges this process's job worker after an enqueue (no-op in the agent role). */
  wake(): void;
  now(): Date;
}

/** A service token acting in the policy: its role, and `token:<name>` as the name audit lines carry. */
export function tokenPrincipal(token: ServiceToken): Principal {
  return { role: token.role === 'admin' ? 'admin' : 'user', username: `token:${token.name}` };
}

/**
 * The managed datasource a token names. 404 when unknown or hidden from the token's role (the same answer
 * as for a session, so existence is not revealed), 503 when declared but unavailable, 403 when the token's
 * `datasources` allowlist leaves it out.
 */
export function datasourceForToken(ctx: BotContext, token: ServiceToken, id: string): ManagedDatasource {
  const entry = ctx.datasources.resolve(id);
  if (!entry?.datasource.roles.includes(token.role as 'admin' | 'user')) {
    throw new HttpError(404, `Unknown datasource ${id}`, 'NOT_FOUND');
  }
  if (!entry.available) {
    throw new HttpError(503, `Datasource ${id} is unavailable`, 'DATASOURCE_UNAVAILABLE');
  }
  if (token.datasources && !token.datasources.includes(id)) {
    throw new HttpError(403, `This service token may not use datasource ${id}`, 'FORBIDDEN');
  }
  return entry.datasource;
}

export interface Classified {
  /** The request's whole text as sent. */
  sql: string;
  classification: ScriptClassification;
  /** The statements to run, in order: the split pieces (a doubtful "whole script" entry is checked, not run). */
  statements: string[];
}

/** Classifies a script for the datasource's engine (every gate then reads every statement). */
export async function classifyFor(ds: ManagedDatasource, statement: string): Promise<Classified> {
  const dialect = ds.type as Dialect;
  const classification = await classifyScript(statement, dialect, {
    defaultSchema: ds.policy.objectRules?.defaultSchema,
  });
  // When the splitter and the engine's lexer disagree the classifier adds the whole text as one more
  // (doubtful) statement for the gates; running it as well would run the script twice.
  const pieces = isClassifierDialect(dialect) ? splitStatements(statement, dialect).length : 1;
  const statements = classification.statements.slice(0, Math.max(1, pieces)).map((s) => s.text);
  return { sql: statement, classification, statements };
}
