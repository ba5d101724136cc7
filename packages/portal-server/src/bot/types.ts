// Shapes of the bot execution API (database-portal.md "Bot execution record", "Bot execution API"): the
// stored request, its outcome, and the record a service token reads back. Plain data, no I/O.

export type BotStatus = 'pending' | 'approved' | 'rejected';

/** Why a request waits for reviewers (the first that applied). */
export type BotHold = 'write_approval' | 'guardrail' | 'review' | 'token';

/** Why a request ended rejected: a reviewer said no, or nobody decided within APPROVAL_TTL_HOURS. */
export type BotRejection = 'rejected' | 'expired';

/**
 * Closed words for `execution.error` and `statements[i].error`: engine messages are not passed on, since
 * they can quote masked values back (DESIGN §5: masking leaks through error messages).
 */
export const EXECUTION_ERRORS = [
  'query_error',
  'timeout',
  'cancelled',
  'connection_error',
  'datasource_unavailable',
  'policy_denied',
  'concurrency_limit',
  'not_run',
  'lost',
] as const;
export type ExecutionError = (typeof EXECUTION_ERRORS)[number];

/** `execution` of the record: the outcome of running the request (bounded, masked rows). */
export interface ExecutionOutcome {
  status: 'done' | 'failed';
  rowCount: number;
  fields: string[];
  rows: Record<string, unknown>[];
  truncated?: boolean;
  durationMs: number;
  error?: ExecutionError;
}

/** One entry of `statements` (scripts of more than one statement). */
export interface StatementOutcome {
  index: number;
  status: 'done' | 'failed';
  rowCount?: number;
  durationMs: number;
  error?: ExecutionError;
}

export interface BotOutcome {
  execution: ExecutionOutcome;
  /** Scripts only: statements that completed, and one entry per statement that ran. */
  executedCount?: number;
  statements?: StatementOutcome[];
}

export interface ReviewerMark {
  reviewer: string;
  at: string;
}

export interface ReplyTarget {
  channel: string;
  threadTs?: string;
}

/** Chat messages posted for a request, so later posts can thread under them and update them. */
export interface ChatRefs {
  review?: { channel: string; ts: string };
  reply?: { channel: string; ts: string };
}

/** A stored bot request (internal; `toPublicRecord` is what a token reads). */
export interface BotRequest {
  id: string;
  tokenId: string;
  tokenName: string;
  datasourceId: string;
  statement: string;
  onBehalfOf: string;
  status: BotStatus;
  hold?: BotHold;
  approvalId?: string;
  guardrail?: string;
  reviewReason?: string;
  approvedBy?: ReviewerMark[];
  ticket?: string;
  reply?: ReplyTarget;
  callbackUrl?: string;
  jobId?: string;
  rejection?: BotRejection;
  outcome?: BotOutcome;
  chat?: ChatRefs;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  finishedAt?: string;
  version: number;
}

/** The record of database-portal.md "Bot execution record", plus a few fields a bot needs to follow up. */
export interface BotRecord {
  id: string;
  status: BotStatus;
  datasourceId: string;
  onBehalfOf: string;
  createdAt: string;
  jobId?: string;
  guardrail?: string;
  approvalId?: string;
  review?: { reason: string };
  approvedBy?: ReviewerMark[];
  rejection?: BotRejection;
  execution?: ExecutionOutcome;
  executedCount?: number;
  statements?: StatementOutcome[];
}

export function toPublicRecord(r: BotRequest): BotRecord {
  const out: BotRecord = {
    id: r.id,
    status: r.status,
    datasourceId: r.datasourceId,
    onBehalfOf: r.onBehalfOf,
    createdAt: r.createdAt,
  };
  if (r.jobId) out.jobId = r.jobId;
  if (r.guardrail) out.guardrail = r.guardrail;
  if (r.approvalId) out.approvalId = r.approvalId;
  if (r.reviewReason) out.review = { reason: r.reviewReason };
  if (r.approvedBy) out.approvedBy = r.approvedBy;
  if (r.rejection) out.rejection = r.rejection;
  if (r.outcome) {
    out.execution = r.outcome.execution;
    if (r.outcome.statements) {
      out.executedCount = r.outcome.executedCount ?? 0;
      out.statements = r.outcome.statements;
    }
  }
  return out;
}
