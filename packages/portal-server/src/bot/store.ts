// Bot requests at rest (table `bot_requests`, storage/migrations/0004_bot_requests.ts). Every change is a compare-and-set on
// `version`, so a reviewer's decision, the worker's outcome and a chat post cannot overwrite each other.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PortalDatabase } from '../storage/schema.js';
import type {
  BotHold,
  BotOutcome,
  BotRejection,
  BotRequest,
  BotStatus,
  ChatRefs,
  ReplyTarget,
  ReviewerMark,
} from './types.js';

export interface BotRequestTable {
  id: string;
  token_id: string;
  token_name: string;
  datasource_id: string;
  statement: string;
  on_behalf_of: string;
  status: string;
  hold: string | null;
  approval_id: string | null;
  guardrail: string | null;
  review_reason: string | null;
  approved_by: string | null;
  ticket: string | null;
  reply: string | null;
  callback_url: string | null;
  job_id: string | null;
  rejection: string | null;
  outcome: string | null;
  chat: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  version: number;
}

type BotDatabase = PortalDatabase & { bot_requests: BotRequestTable };

const json = <T>(v: string | null): T | undefined => (v === null ? undefined : (JSON.parse(v) as T));

function toRequest(row: BotRequestTable): BotRequest {
  const out: BotRequest = {
    id: row.id,
    tokenId: row.token_id,
    tokenName: row.token_name,
    datasourceId: row.datasource_id,
    statement: row.statement,
    onBehalfOf: row.on_behalf_of,
    status: row.status as BotStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
  if (row.hold) out.hold = row.hold as BotHold;
  if (row.approval_id) out.approvalId = row.approval_id;
  if (row.guardrail) out.guardrail = row.guardrail;
  if (row.review_reason) out.reviewReason = row.review_reason;
  if (row.approved_by) out.approvedBy = json<ReviewerMark[]>(row.approved_by);
  if (row.ticket) out.ticket = row.ticket;
  if (row.reply) out.reply = json<ReplyTarget>(row.reply);
  if (row.callback_url) out.callbackUrl = row.callback_url;
  if (row.job_id) out.jobId = row.job_id;
  if (row.rejection) out.rejection = row.rejection as BotRejection;
  if (row.outcome) out.outcome = json<BotOutcome>(row.outcome);
  if (row.chat) out.chat = json<ChatRefs>(row.chat);
  if (row.started_at) out.startedAt = row.started_at;
  if (row.finished_at) out.finishedAt = row.finished_at;
  return out;
}

export interface NewBotRequest {
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
  outcome?: BotOutcome;
}

export interface BotRequestPatch {
  status?: BotStatus;
  approvalId?: string;
  jobId?: string;
  rejection?: BotRejection;
  outcome?: BotOutcome;
  chat?: ChatRefs;
  /** Marks the run as begun: a run job that finds this set without an outcome never runs it again. */
  started?: boolean;
  finished?: boolean;
}

export class BotRequestRepository {
  private readonly db: Kysely<BotDatabase>;

  constructor(
    db: Kysely<PortalDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = db.withTables<{ bot_requests: BotRequestTable }>();
  }

  async create(input: NewBotRequest & { id?: string }): Promise<BotRequest> {
    const at = this.now().toISOString();
    const row: BotRequestTable = {
      id: input.id ?? randomUUID(),
      token_id: input.tokenId,
      token_name: input.tokenName,
      datasource_id: input.datasourceId,
      statement: input.statement,
      on_behalf_of: input.onBehalfOf,
      status: input.status,
      hold: input.hold ?? null,
      approval_id: input.approvalId ?? null,
      guardrail: input.guardrail ?? null,
      review_reason: input.reviewReason ?? null,
      approved_by: input.approvedBy ? JSON.stringify(input.approvedBy) : null,
      ticket: input.ticket ?? null,
      reply: input.reply ? JSON.stringify(input.reply) : null,
      callback_url: input.callbackUrl ?? null,
      job_id: null,
      rejection: null,
      outcome: input.outcome ? JSON.stringify(input.outcome) : null,
      chat: null,
      created_at: at,
      updated_at: at,
      started_at: input.outcome ? at : null,
      finished_at: input.outcome ? at : null,
      version: 1,
    };
    await this.db.insertInto('bot_requests').values(row).execute();
    return toRequest(row);
  }

  async get(id: string): Promise<BotRequest | undefined> {
    const row = await this.db.selectFrom('bot_requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRequest(row);
  }

  async findByApproval(approvalId: string): Promise<BotRequest | undefined> {
    const row = await this.db
      .selectFrom('bot_requests')
      .selectAll()
      .where('approval_id', '=', approvalId)
      .executeTakeFirst();
    return row && toRequest(row);
  }

  /**
   * Applies `patch` only if the row is still at `expectedVersion`; answers the updated request, or undefined
   * when another writer got there first (the caller re-reads and decides again).
   */
  async update(id: string, expectedVersion: number, patch: BotRequestPatch): Promise<BotRequest | undefined> {
    const set: Partial<BotRequestTable> = {
      version: expectedVersion + 1,
      updated_at: this.now().toISOString(),
    };
    if (patch.status) set.status = patch.status;
    if (patch.approvalId !== undefined) set.approval_id = patch.approvalId;
    if (patch.jobId !== undefined) set.job_id = patch.jobId;
    if (patch.rejection !== undefined) set.rejection = patch.rejection;
    if (patch.outcome !== undefined) set.outcome = JSON.stringify(patch.outcome);
    if (patch.chat !== undefined) set.chat = JSON.stringify(patch.chat);
    if (patch.started) set.started_at = set.updated_at;
    if (patch.finished) set.finished_at = set.updated_at;
    const res = await this.db
      .updateTable('bot_requests')
      .set(set)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  /**
   * Re-reads and applies `change` until its compare-and-set wins (or `change` answers undefined: nothing to
   * do). For writers that merge into the row rather than decide on it (chat message references).
   */
  async mutate(
    id: string,
    change: (current: BotRequest) => BotRequestPatch | undefined,
  ): Promise<BotRequest | undefined> {
    for (let i = 0; i < 10; i++) {
      const current = await this.get(id);
      if (!current) return undefined;
      const patch = change(current);
      if (!patch) return current;
      const next = await this.update(id, current.version, patch);
      if (next) return next;
    }
    throw new Error(`bot request ${id} kept changing under concurrent writers`);
  }

  /**
   * Pending requests whose approval is no longer pending (decided, or expired by APPROVAL_TTL_HOURS): the
   * reconciler applies those decisions, whichever process or route made them. Oldest first, bounded.
   */
  async pendingWithSettledApproval(limit: number): Promise<Array<{ requestId: string; approvalId: string }>> {
    const rows = await this.db
      .selectFrom('bot_requests as b')
      .innerJoin('approvals as a', 'a.id', 'b.approval_id')
      .select(['b.id as requestId', 'a.id as approvalId'])
      .where('b.status', '=', 'pending')
      .where('a.status', '!=', 'pending')
      .orderBy('b.created_at')
      .limit(limit)
      .execute();
    return rows;
  }

  /**
   * Approved requests with no outcome and no job (the process that approved them stopped before queueing
   * the run): the reconciler queues them.
   */
  async approvedWithoutJob(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('bot_requests')
      .select('id')
      .where('status', '=', 'approved')
      .where('job_id', 'is', null)
      .where('outcome', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}
