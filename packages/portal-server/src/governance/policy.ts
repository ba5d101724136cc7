// Datasource policy evaluation (database-portal.md "What the service does" 3, Errors 3 and 6, Bot rule 8;
// decisions.md "policy keys", "guardrail holds"): one pure function that reads a classified script and the
// datasource's policy and answers allow, deny (403 with the audit type) or hold (needs reviewers), in the
// spec's order. Stateful steps (approval windows, the concurrency cap, masking, export rules) live beside it.

import type { Principal } from '../auth/principal.js';
import { normalizePolicy } from '../datasources/policy.js';
import type { DatasourcePolicy } from '../datasources/types.js';
import { engineDescriptor } from '../providers/registry.js';
import type { GuardrailValue, ScriptClassification } from './classify/index.js';
import { firstGuardrail, objectRuleViolation } from './classify/index.js';
import { activeFreezeWindow } from './freeze.js';

/** Execution routes the policy is asked about. `bot` is `/api/v1/executions` (and the worker that runs it). */
export type PolicyRoute = 'query' | 'multi-query' | 'transaction' | 'export' | 'bot';

/**
 * The datasource a statement runs on: a managed datasource (its definition and policy from
 * PORTAL_DATASOURCES) or a connection a user created (no server policy; only its `environment` counts).
 */
export interface PolicyDatasource {
  id: string;
  name: string;
  /** Engine id of decisions.md (one of the registry's engines). */
  engine: string;
  managed: boolean;
  /** `production`, `staging`, … ; a user connection with `production` is held by guardrails. */
  environment?: string;
  /** Managed: its policy as loaded (datasources/validate.ts). A user connection's is ignored: it brings none. */
  policy?: DatasourcePolicy;
}

export interface PolicyInput {
  /** The caller (administrators are not held by object rules). */
  session: Principal;
  datasource: PolicyDatasource;
  /** `classifyScript(sql, dialect, {defaultSchema: policy.objectRules?.defaultSchema})` of the whole text. */
  classification: ScriptClassification;
  route: PolicyRoute;
  /** Trimmed ticket text, when the request carried one. */
  ticket?: string;
  /** Whose statement it is: the session user, or a bot request's `onBehalfOf`. */
  requester: string;
  /** Clock for freeze windows (tests). */
  now?: Date;
}

/** Audit event types a denial is recorded under. */
export type DenyAuditType = 'permission_denied' | 'object_forbidden';

export interface PolicyDeny {
  /** HTTP status to answer: 403 for every policy refusal, 400 for a read-only engine answering in its own words. */
  status: 403 | 400;
  /** `READ_ONLY`, `TICKET_REQUIRED`, `FREEZE_WINDOW`, `OBJECT_FORBIDDEN`; `QUERY_ERROR` (the engine's refusal). */
  code: 'READ_ONLY' | 'TICKET_REQUIRED' | 'FREEZE_WINDOW' | 'OBJECT_FORBIDDEN' | 'QUERY_ERROR';
  /** A message a person can act on (never names a hidden object to a caller who may not see it). */
  message: string;
  /** Audit type to record the refusal under. */
  audit: DenyAuditType;
  /** Extra audit fields (statement index, the freeze window's reason, …). Not for the HTTP answer. */
  details?: Record<string, unknown>;
}

export interface PolicyHold {
  /** Why the request needs reviewers, for people. */
  reason: string;
  /** The guardrail that holds it (the first of `firstGuardrail`), when one does. */
  guardrail?: GuardrailValue;
  /**
   * True when the datasource's `writeApproval` applies (the script writes). A trusted bot `approvedBy`
   * lifts a hold only when this is the sole cause (`guardrail` undefined).
   */
  writeApproval: boolean;
}

export type PolicyDecision = { allow: true } | { deny: PolicyDeny } | { hold: PolicyHold };

/**
 * Evaluates the policy for one request, in the spec's order: read-only datasource, required ticket, freeze
 * windows, object rules, then the holds (write approval, guardrails). Pure; never throws for bad input.
 * The caller continues after `allow` (or after a hold lifted by an open approval window) with the concurrency
 * cap (`ConcurrencyLimiter`), runs exactly `classification.statements[i].text`, and masks every returned row.
 * Holds: a session route answers 403 `APPROVAL_REQUIRED` with the pending request (`ApprovalService`); the bot
 * route answers 202 pending.
 */
export function evaluatePolicy(input: PolicyInput): PolicyDecision {
  const policy = effectivePolicy(input.datasource);
  const c = input.classification;
  const writes = c.isWrite;

  // 1. Read-only datasource: any write (doubtful statements count as writes) is refused. A read-only engine
  // (its capabilities say so: the search engines, Druid) is refused first whatever the policy says, as its
  // descriptor says to answer: 403 READ_ONLY, or 400 QUERY_ERROR in the engine's own words.
  const engine = engineDescriptor(input.datasource.engine);
  if (writes && engine?.capabilities.readOnlyEngine) {
    const index = firstWriteIndex(c);
    const generic = `${input.datasource.name} is a read-only engine; the statement writes`;
    if (engine.writeRefusal === 'engine') {
      const write = c.statements.find((s) => s.kind === 'write');
      const words = engine.refuseStatement?.(write?.text ?? '') ?? generic;
      return {
        deny: {
          status: 400,
          code: 'QUERY_ERROR',
          message: words,
          audit: 'permission_denied',
          details: { statementIndex: index },
        },
      };
    }
    return deny('READ_ONLY', generic, { statementIndex: index });
  }
  if (policy.readOnly && writes) {
    return deny('READ_ONLY', `Datasource ${input.datasource.name} is read-only; the statement writes`, {
      statementIndex: firstWriteIndex(c),
    });
  }
  // 2. Required ticket: writes need one.
  if (policy.requireTicket && writes && !input.ticket) {
    return deny('TICKET_REQUIRED', `Writes on ${input.datasource.name} need a ticket; send one in "ticket"`);
  }
  // 3. Freeze windows: no writes while one is open.
  if (writes) {
    const frozen = activeFreezeWindow(policy.freezeWindows, input.now ?? new Date());
    if (frozen) {
      const why = frozen.reason ? ` (${frozen.reason})` : '';
      return deny('FREEZE_WINDOW', `Writes on ${input.datasource.name} are frozen until ${frozen.to}${why}`, {
        freezeWindow: frozen,
      });
    }
  }
  // 4. Object rules: hidden objects and reach the server cannot place; administrators are not held.
  if (policy.objectRules && input.session.role !== 'admin') {
    const v = objectRuleViolation(c, policy.objectRules);
    if (v) {
      const message =
        v.kind === 'hidden'
          ? `Statement ${v.statementIndex + 1} reaches an object this datasource does not allow`
          : `Statement ${v.statementIndex + 1} reaches objects the server cannot place (${v.reason}); qualify names with their schema`;
      return {
        deny: {
          status: 403,
          code: 'OBJECT_FORBIDDEN',
          message,
          audit: 'object_forbidden',
          details: { statementIndex: v.statementIndex, object: v.object, violation: v.kind },
        },
      };
    }
  }
  // 5 and 6. Holds: write approval, then guardrails (both answered with the approval request).
  // The `unverifiable` guardrail does not hold administrators where the policy lets them run such statements.
  const adminFree = policy.adminsRunUnverifiable && input.session.role === 'admin';
  const guardrail = policy.guardrails ? firstGuardrail(c, adminFree ? ['unverifiable'] : []) : undefined;
  const writeApproval = policy.writeApproval && writes;
  if (writeApproval || guardrail) {
    const reason = guardrail
      ? `Statement hits the ${guardrail} guardrail and needs ${policy.approvalsRequired} reviewer approval(s)`
      : `Writes on ${input.datasource.name} need ${policy.approvalsRequired} reviewer approval(s)`;
    return { hold: { reason, writeApproval, ...(guardrail ? { guardrail } : {}) } };
  }
  return { allow: true };
}

/** The policy in force for a datasource: managed ones carry theirs as loaded; user connections only guardrails. */
export function effectivePolicy(ds: PolicyDatasource): DatasourcePolicy {
  if (ds.managed && ds.policy) return ds.policy;
  return normalizePolicy(undefined, { managed: ds.managed, environment: ds.environment });
}

function firstWriteIndex(c: ScriptClassification): number {
  return c.statements.find((s) => s.kind === 'write')?.index ?? 0;
}

function deny(code: PolicyDeny['code'], message: string, details?: Record<string, unknown>): PolicyDecision {
  return {
    deny: { status: 403, code, message, audit: 'permission_denied', ...(details ? { details } : {}) },
  };
}

export type { PolicyInputPolicy } from '../datasources/policy.js';
