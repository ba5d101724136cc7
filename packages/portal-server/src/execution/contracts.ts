// The contracts of governed execution, as small interfaces: who is asking (session), which datasources the
// server manages, where audit events go, and the governance hook points (policy before execution, masking of
// every returned row, export rules). server.ts wires the real implementations; tests pass simple ones.
// `createQueryDeps` assembles them with the provider cache. The target resolution is in target.ts, the one
// execution function every path calls in pipeline.ts. Nothing here knows HTTP beyond the request type.

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { AuditInput } from '../audit/audit-log.js';
import type { AuditResult } from '../audit/types.js';
import type { Principal } from '../auth/principal.js';
import type { DatasourcePolicy, ManagedDatasource } from '../datasources/types.js';
import type { ScriptClassification } from '../governance/classify/types.js';
import { ProviderCache } from '../providers/cache.js';
import type { Dialect } from '../providers/registry.js';
import { engineFor } from '../providers/registry.js';
import { RunningQueries } from '../providers/running.js';
import { sshProfilesFromFile } from '../providers/ssh.js';
import { TransactionManager } from '../providers/transactions.js';
import type { ConnectionDescriptor, ParamValue, Provider, ProviderSession } from '../providers/types.js';
import type { Approval, DryRunCount, ReviewerMark } from '../storage/approvals.js';
import type { DryRunStep } from './dry-run.js';

export interface SessionReader {
  /** The caller's session; throws a 401 HttpError when there is none. */
  requireSession(request: FastifyRequest): Promise<Principal> | Principal;
}

/** The datasources declared on the server (PORTAL_DATASOURCES), as loaded: definition, roles and policy. */
export interface ManagedLookup {
  getManaged(id: string): ManagedDatasource | undefined | Promise<ManagedDatasource | undefined>;
  /**
   * Why a declared datasource cannot be used right now (e.g. a missing `${ENV}`), or undefined. A request
   * naming it fails with 503; it never falls back to whatever descriptor the client sent.
   */
  unavailable?(id: string): string | undefined;
}

/**
 * An audit event as execution writes it: the audit log's input (audit/audit-log.ts) with an actor and a
 * result. `connection` is the datasource id; `connectionName` and `engine` travel beside it.
 */
export type AuditEvent = AuditInput & { actor: string; result: AuditResult };

export interface AuditSink {
  record(event: AuditEvent): void | Promise<void>;
}

/** Everything governance needs to decide about one execution request. */
export interface ExecutionContext {
  session: Principal;
  route: ExecutionRoute;
  connection: ConnectionDescriptor;
  managed?: ManagedDatasource;
  /** The policy in force, resolved once with the target (datasources/types.ts): governance reads it as is. */
  policy: DatasourcePolicy;
  engine: string;
  dialect: Dialect;
  /** The statements as split under the engine's grammar, in order. */
  statements: string[];
  params: ParamValue[];
  ticket?: string;
  /** Export only: the caller asked for unmasked values (the masking hook decides whether that is allowed). */
  reveal?: boolean;
  /** The request's whole text as sent (governance classifies it as one script). */
  sql?: string;
  /** Scripts: which statement the rows passed to `maskRows` came from. */
  statementIndex?: number;
  /** Who the statement is run for when the principal acts on someone's behalf (bot `onBehalfOf`). */
  requester?: string;
  /** The classification the caller already made of this text (the bot classified at submission): reused, not redone. */
  classification?: ScriptClassification;
  /**
   * An approval the caller already holds for this exact text (a bot request approved through its own flow):
   * a hold is satisfied by it instead of an approval window.
   */
  approval?: { id?: string; reviewers: string[] };
  /** The agent's read-only profile: the engine refuses writes whatever the policy says. */
  readOnlyProfile?: boolean;
  /**
   * Runs the given writes of this request in a transaction that is rolled back and answers the rows each
   * guarded one touched (execution/dry-run.ts); set by the pipeline, called by governance when it judges by effect.
   */
  dryRun?: (steps: DryRunStep[]) => Promise<DryRunCount[]>;
}

/**
 * Every path that runs statements: the session routes, the bot API, and the AI agent and MCP tools. The
 * policy reads `bot`, `mcp` and `agent` like the routes they stand in for (decisions.md).
 */
export type ExecutionRoute =
  | 'query'
  | 'multi-query'
  | 'transaction'
  | 'export'
  | 'explain'
  | 'objects'
  | 'bot'
  | 'mcp'
  | 'agent';

/**
 * Hook points for the governance layer (classification, policy, approvals, masking, export rules). The
 * defaults allow everything and mask nothing. A refusal is a thrown HttpError (403, 429, …).
 */
export interface GovernanceHooks {
  /** Decides and admits; a refusal is audited (with `refusalFields`) and thrown. */
  beforeExecute(ctx: ExecutionContext, refusalFields?: Record<string, unknown>): void | Promise<void>;
  /** Masks rows before they leave the server (query results, scripts, transactions). */
  maskRows(
    ctx: ExecutionContext,
    fields: string[],
    rows: Record<string, unknown>[],
  ): Record<string, unknown>[];
  /** A per-row masker for streamed exports (rows as arrays in field order), or undefined for none. */
  exportRowMasker(ctx: ExecutionContext, fields: string[]): ((row: unknown[]) => unknown[]) | undefined;
  /** The export rule: throw to refuse (403, audited `export_not_allowed` by the hook). */
  checkExport(ctx: ExecutionContext): void | Promise<void>;
  /** Object rules on the object surface: a hidden object is left out of lists and its describe is 404. */
  isObjectVisible(ctx: ExecutionContext, path: readonly string[]): boolean;
  /**
   * The provider a route runs the request on, after `beforeExecute` (or at transaction `begin`): governance
   * may make the engine itself refuse writes and withhold engine messages that could echo masked values.
   */
  wrapProvider?(ctx: ExecutionContext, provider: Provider): Provider;
  /** Same for a statement on an open transaction's session. */
  wrapSession?(ctx: ExecutionContext, session: ProviderSession): ProviderSession;
  /** Called once the execution that `beforeExecute` admitted has ended (success or failure): frees its slot. */
  afterExecute?(ctx: ExecutionContext): void;
  /** Extra fields for the execution's `query_execution` audit line (e.g. `approved_by`). */
  auditFields?(ctx: ExecutionContext): Record<string, unknown>;
  /** Whether rows of statement `ctx.statementIndex` are masked (their engine messages are then withheld). */
  masks?(ctx: ExecutionContext): boolean;
  /**
   * The most rows statement `index` may report affected: the approved dry run's count. The pipeline runs such
   * a statement in a transaction and rolls it back (409 AFFECTED_ROWS_EXCEEDED) when it touches more.
   */
  affectedCeiling?(ctx: ExecutionContext, index: number): number | undefined;
  /**
   * The verdict alone, for a caller with its own hold flow (the bot at submission; pipeline decideGoverned):
   * decide() as beforeExecute makes it (classification, guarded writes judged by their dry run, policy), with
   * a refusal audited and thrown as beforeExecute does, `refusalFields` added to that audit line. Answers run
   * or hold; takes no slot and opens no approval.
   */
  judge?(ctx: ExecutionContext, refusalFields?: Record<string, unknown>): Promise<JudgedRequest>;
  /**
   * Opens a pending approval for a held request and writes its `approval_requested` audit line (with
   * `auditFields`): what beforeExecute does for a session route's hold, offered to a caller that holds
   * requests in its own flow (the bot at submission; pipeline requestGovernedApproval).
   */
  requestApproval?(
    ctx: ExecutionContext,
    hold: ApprovalHold,
    auditFields?: Record<string, unknown>,
  ): Promise<Approval>;
}

/** What a held request's approval carries beside the request itself. */
export interface ApprovalHold {
  guardrail?: string;
  /** The dry run's counts, shown to reviewers and enforced on the approved run. */
  dryRun?: DryRunCount[];
  /** Reviewers a bot declared that do not lift the hold (kept on the record, never counted). */
  approvedBy?: ReviewerMark[];
  /** Answer an identical still-pending request by the same requester (session routes: a retry). */
  reusePending?: boolean;
}

/** What `judge` answers: the classification judged (effect guardrails included), the dry run's counts, and run or hold. */
export interface JudgedRequest {
  classification: ScriptClassification;
  dryRun?: DryRunCount[];
  /** The hold that needs reviewers (write approval, a guardrail), or undefined when it may run. */
  hold?: { reason: string; guardrail?: string };
}

export const allowAllGovernance: GovernanceHooks = {
  beforeExecute: () => undefined,
  maskRows: (_ctx, _fields, rows) => rows,
  exportRowMasker: () => undefined,
  checkExport: () => undefined,
  isObjectVisible: () => true,
};

/** What every execution path is given (server.ts builds one; `ExecutionDeps` is its name below http/). */
export interface QueryDeps {
  sessions: SessionReader;
  managed: ManagedLookup;
  audit: AuditSink;
  governance: GovernanceHooks;
  providers: ProviderCache;
  running: RunningQueries;
  transactions: TransactionManager;
  /** Where export files are spooled before they are sent (the row count must be known for the header). */
  spoolDir: string;
  /** The caller's own saved connections (server storage), with their sealed credentials opened. */
  saved?: SavedConnectionLookup;
}

export type ExecutionDeps = QueryDeps;

export interface SavedConnectionLookup {
  getWithSecrets(owner: string, id: string): Promise<object | undefined>;
}

export const MAX_STATEMENT_CHARS = 1_048_576;
export const TICKET_MAX = 120;
/** Row ceiling when a connection has no datasource policy (the export bound of the spec). */
export const SERVER_MAX_ROWS = 100_000;

/** Builds the route dependencies around the three injected interfaces; `close()` releases every pool. */
export async function createQueryDeps(options: {
  sessions: SessionReader;
  managed: ManagedLookup;
  audit: AuditSink;
  dataDir: string;
  governance?: GovernanceHooks;
  saved?: SavedConnectionLookup;
  sshProfilesFile?: string;
  transactionIdleMs?: number;
}): Promise<QueryDeps & { close(): Promise<void> }> {
  const embeddedDir = join(options.dataDir, 'databases');
  const spoolDir = join(options.dataDir, 'export-spool');
  mkdirSync(embeddedDir, { recursive: true });
  mkdirSync(spoolDir, { recursive: true });
  // Spool files of a previous run that stopped mid-export.
  for (const f of readdirSync(spoolDir)) rmSync(join(spoolDir, f), { force: true });
  const providers = new ProviderCache(engineFor, {
    embeddedDir,
    sshProfiles: sshProfilesFromFile(options.sshProfilesFile ?? process.env.PORTAL_SSH_PROFILES),
  });
  const transactions = new TransactionManager(options.transactionIdleMs);
  return {
    sessions: options.sessions,
    managed: options.managed,
    saved: options.saved,
    audit: options.audit,
    governance: options.governance ?? allowAllGovernance,
    providers,
    running: new RunningQueries(),
    transactions,
    spoolDir,
    async close() {
      await transactions.closeAll();
      await providers.closeAll();
    },
  };
}
