// Write approvals: the spec's Approval record at rest. Every change is a compare-and-set on `version`, so two
// reviewers deciding at once cannot both win; the decision rules themselves live in the governance layer.
import { createHash, randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { ApprovalTable, PortalDatabase } from './schema.js';

/** `withdrawn`: the requester took a pending request back (http/approval-withdraw.ts). */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'withdrawn';

export interface ReviewerMark {
  reviewer: string;
  at: string;
}

/** The spec's Approval record, plus `version` for compare-and-set and the optional ticket and note. */
export interface Approval {
  id: string;
  datasourceId: string;
  datasourceName: string;
  requester: string;
  statement: string;
  route: string;
  status: ApprovalStatus;
  requestedAt: string;
  reviewer?: string;
  reviewedAt?: string;
  windowUntil?: string;
  guardrail?: string;
  /** Rows the held write touched per table in its rolled-back dry run (the approved run may touch no more). */
  dryRun?: DryRunCount[];
  approvals?: ReviewerMark[];
  approvedBy?: ReviewerMark[];
  ticket?: string;
  note?: string;
  version: number;
}

export interface NewApproval {
  datasourceId: string;
  datasourceName: string;
  requester: string;
  statement: string;
  route: string;
  guardrail?: string;
  dryRun?: DryRunCount[];
  ticket?: string;
  approvedBy?: ReviewerMark[];
  requestedAt?: string;
}

/** One table's count in a dry run: rows of statement `statement` touched, of `total` before it ran. */
export interface DryRunCount {
  statement: number;
  table: string;
  touched: number;
  total: number;
  /** What the engine reported as affected (upserts count inserted rows too): the approved run's ceiling. */
  reported: number;
  /**
   * A table the statement does not name, changed through triggers or ON DELETE/UPDATE CASCADE (engines that
   * count them: PostgreSQL). `touched` counts its existing rows updated or deleted, `inserted` its new rows;
   * `reported` is 0 (the engine reports the statement's own rows only).
   */
  indirect?: boolean;
  inserted?: number;
}

export interface ApprovalPatch {
  status?: ApprovalStatus;
  reviewer?: string;
  reviewedAt?: string;
  windowUntil?: string;
  approvals?: ReviewerMark[];
  note?: string;
}

export function statementHash(statement: string): string {
  return createHash('sha256').update(statement).digest('hex');
}

function toApproval(row: ApprovalTable): Approval {
  const approvals = JSON.parse(row.approvals) as ReviewerMark[];
  const out: Approval = {
    id: row.id,
    datasourceId: row.datasource_id,
    datasourceName: row.datasource_name,
    requester: row.requester,
    statement: row.statement,
    route: row.route,
    status: row.status as ApprovalStatus,
    requestedAt: row.requested_at,
    version: row.version,
  };
  if (row.reviewer) out.reviewer = row.reviewer;
  if (row.reviewed_at) out.reviewedAt = row.reviewed_at;
  if (row.window_until) out.windowUntil = row.window_until;
  if (row.guardrail) out.guardrail = row.guardrail;
  if (row.dry_run) out.dryRun = JSON.parse(row.dry_run) as DryRunCount[];
  if (approvals.length > 0) out.approvals = approvals;
  if (row.approved_by) out.approvedBy = JSON.parse(row.approved_by) as ReviewerMark[];
  if (row.ticket) out.ticket = row.ticket;
  if (row.note) out.note = row.note;
  return out;
}

export interface ApprovalListFilter {
  status?: ApprovalStatus;
  /** Only these datasources (the ones the caller reviews); an empty list matches nothing. */
  datasourceIds?: string[];
  requester?: string;
  limit: number;
  offset?: number;
}

export class ApprovalRepository {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: NewApproval): Promise<Approval> {
    const row: ApprovalTable = {
      id: randomUUID(),
      datasource_id: input.datasourceId,
      datasource_name: input.datasourceName,
      requester: input.requester,
      statement: input.statement,
      statement_hash: statementHash(input.statement),
      route: input.route,
      status: 'pending',
      requested_at: input.requestedAt ?? this.now().toISOString(),
      reviewer: null,
      reviewed_at: null,
      window_until: null,
      guardrail: input.guardrail ?? null,
      dry_run: input.dryRun ? JSON.stringify(input.dryRun) : null,
      approvals: '[]',
      approved_by: input.approvedBy ? JSON.stringify(input.approvedBy) : null,
      ticket: input.ticket ?? null,
      note: null,
      version: 1,
    };
    await this.db.insertInto('approvals').values(row).execute();
    return toApproval(row);
  }

  async get(id: string): Promise<Approval | undefined> {
    const row = await this.db.selectFrom('approvals').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toApproval(row);
  }

  /** Pending first (oldest first, the review queue's order), then decided ones, most recent first. */
  async list(filter: ApprovalListFilter): Promise<Approval[]> {
    if (filter.datasourceIds && filter.datasourceIds.length === 0) return [];
    let q = this.db.selectFrom('approvals').selectAll();
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.datasourceIds) q = q.where('datasource_id', 'in', filter.datasourceIds);
    if (filter.requester) q = q.where('requester', '=', filter.requester);
    const rows = await q
      .orderBy(sql`case when status = 'pending' then 0 else 1 end`)
      .orderBy(sql`case when status = 'pending' then requested_at else '' end`)
      .orderBy(sql`coalesce(reviewed_at, requested_at)`, 'desc')
      .orderBy('id')
      .limit(filter.limit)
      .offset(filter.offset ?? 0)
      .execute();
    return rows.map(toApproval);
  }

  /**
   * Applies `patch` only if the record is still at `expectedVersion`; answers the updated record, or
   * undefined when someone else changed it first (the caller re-reads and answers 409).
   */
  async update(id: string, expectedVersion: number, patch: ApprovalPatch): Promise<Approval | undefined> {
    const set: Partial<ApprovalTable> = { version: expectedVersion + 1 };
    if (patch.status) set.status = patch.status;
    if (patch.reviewer !== undefined) set.reviewer = patch.reviewer;
    if (patch.reviewedAt !== undefined) set.reviewed_at = patch.reviewedAt;
    if (patch.windowUntil !== undefined) set.window_until = patch.windowUntil;
    if (patch.approvals !== undefined) set.approvals = JSON.stringify(patch.approvals);
    if (patch.note !== undefined) set.note = patch.note;
    const res = await this.db
      .updateTable('approvals')
      .set(set)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  /** Marks pending requests older than `ttlHours` as expired; answers how many changed. */
  async expirePending(ttlHours: number): Promise<number> {
    const now = this.now();
    const cutoff = new Date(now.getTime() - ttlHours * 3_600_000).toISOString();
    const res = await this.db
      .updateTable('approvals')
      .set((eb) => ({ status: 'expired', version: eb('version', '+', 1) }))
      .where('status', '=', 'pending')
      .where('requested_at', '<', cutoff)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /**
   * An approval of exactly this text by this requester on this route whose window is still open at `at`. The
   * route also names the principal kind: `bot` requests are made by service tokens on behalf of a name, the
   * other routes by signed-in people, so a person named like a bot's `onBehalfOf` never opens a bot window.
   */
  async findOpenWindow(q: {
    datasourceId: string;
    requester: string;
    statement: string;
    route: string;
    at?: Date;
  }): Promise<Approval | undefined> {
    const at = (q.at ?? this.now()).toISOString();
    const rows = await this.db
      .selectFrom('approvals')
      .selectAll()
      .where('datasource_id', '=', q.datasourceId)
      .where('requester', '=', q.requester)
      .where('route', '=', q.route)
      .where('statement_hash', '=', statementHash(q.statement))
      .where('status', '=', 'approved')
      .where('window_until', '>=', at)
      .orderBy('window_until', 'desc')
      .limit(5)
      .execute();
    // The hash narrows the search; the text itself must match exactly.
    const row = rows.find((r) => r.statement === q.statement);
    return row && toApproval(row);
  }

  /** A still-pending request for exactly this text by this requester, so a retry does not open a second. */
  async findPending(q: {
    datasourceId: string;
    requester: string;
    statement: string;
  }): Promise<Approval | undefined> {
    const rows = await this.db
      .selectFrom('approvals')
      .selectAll()
      .where('datasource_id', '=', q.datasourceId)
      .where('requester', '=', q.requester)
      .where('statement_hash', '=', statementHash(q.statement))
      .where('status', '=', 'pending')
      .orderBy('requested_at', 'desc')
      .limit(5)
      .execute();
    const row = rows.find((r) => r.statement === q.statement);
    return row && toApproval(row);
  }
}
