// The approval workflow (database-portal.md "States and transitions" for approvals, "Approvals (session)",
// Limits; decisions.md "approval routes", "guardrail holds"): who may review a datasource's requests, the
// pending → approved/rejected/expired transitions with one or two distinct reviewers, the approval window
// in which the approved text by its requester runs, and expiry after APPROVAL_TTL_HOURS. Storage is the
// approvals repository (compare-and-set on `version`); without server storage every operation is 503.
import { HttpError } from '@app/kit';
import type { Approval, ApprovalRepository, DryRunCount, ReviewerMark } from '../storage/approvals.js';

export type { Approval, ReviewerMark } from '../storage/approvals.js';

/** Default and bounds of the approval window (Limits: 1..240 minutes, default 15). */
export const DEFAULT_WINDOW_MINUTES = 15;
export const MAX_WINDOW_MINUTES = 240;
/** Longest note a reviewer may attach. */
export const MAX_NOTE_CHARS = 2000;

/**
 * Someone deciding: a session user (`role` set), or a chat presser `{username: 'chat:<user_id>'}` with no
 * session role. Names compare case-insensitively.
 */
export interface Reviewer {
  username: string;
  role?: 'admin' | 'user';
}

/** What the approval rules read from a datasource's policy. */
export interface ApprovalPolicyView {
  id: string;
  name: string;
  approvalsRequired: 1 | 2;
  /** Role names, user names or emails, `chat:<user_id>`; empty: administrators only. */
  approverRoles: string[];
}

/**
 * Looks datasources up for the approval rules: `get(id)` for one (undefined for a connection a user created:
 * one reviewer, administrators only), `list()` for every managed one (to list what a caller reviews).
 */
export interface ApprovalDirectory {
  get(id: string): ApprovalPolicyView | undefined;
  list(): ApprovalPolicyView[];
}

export interface ApprovalAudit {
  record(event: {
    type: string;
    actor: string;
    result: 'success' | 'failure';
    connection?: string;
    [k: string]: unknown;
  }): void | Promise<void>;
}

export interface NewApprovalRequest {
  datasource: { id: string; name: string };
  requester: string;
  /** The exact text that will run once approved (the window matches it byte for byte). */
  statement: string;
  route: string;
  guardrail?: string;
  /** The held write's dry-run counts, shown to reviewers and enforced on the approved run. */
  dryRun?: DryRunCount[];
  ticket?: string;
  /** Reviewers a trusted bot declared (bot rule 4); stored on the record, never counted as decisions. */
  approvedBy?: ReviewerMark[];
  /**
   * Session routes: answer an identical still-pending request by the same requester instead of opening a
   * second one (a retry). The bot API opens a new request per POST (default false).
   */
  reusePending?: boolean;
}

export interface DecisionInput {
  id: string;
  reviewer: Reviewer;
  decision: 'approve' | 'reject';
  /** 1..240, default 15; only read for the approval that completes the request. */
  windowMinutes?: number;
  note?: string;
}

/** Passed to `onDecided` listeners after every stored decision. */
export interface DecisionEvent {
  approval: Approval;
  decision: 'approve' | 'reject';
  reviewer: Reviewer;
  /** True when the request left `pending` (approved or rejected); false for a first of two approvals. */
  final: boolean;
}

export interface ApprovalServiceOptions {
  /** The store's approvals repository; undefined without server storage (every call is 503). */
  repository: ApprovalRepository | undefined;
  /** APPROVAL_TTL_HOURS. */
  ttlHours: number;
  directory: ApprovalDirectory;
  audit?: ApprovalAudit;
  now?: () => Date;
  log?: { error(obj: object, msg: string): void };
}

const STORAGE_UNAVAILABLE = () =>
  new HttpError(
    503,
    'Approvals need server storage (STORAGE_PROVIDER sqlite or postgres)',
    'STORAGE_UNAVAILABLE',
  );

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a principal is named by an `approverRoles` list (role names, user names or emails, chat ids). */
export function listNames(list: readonly string[], who: Reviewer): boolean {
  return list.some((entry) => (who.role !== undefined && same(entry, who.role)) || same(entry, who.username));
}

export class ApprovalService {
  private readonly repo: ApprovalRepository | undefined;
  private readonly now: () => Date;
  private readonly listeners = new Set<(e: DecisionEvent) => void | Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ApprovalServiceOptions) {
    this.repo = options.repository;
    this.now = options.now ?? (() => new Date());
  }

  /** False without server storage. */
  get available(): boolean {
    return this.repo !== undefined;
  }

  private store(): ApprovalRepository {
    if (!this.repo) throw STORAGE_UNAVAILABLE();
    return this.repo;
  }

  /** The rules for a datasource id (a connection a user created: one reviewer, administrators). */
  policyFor(datasourceId: string, name = datasourceId): ApprovalPolicyView {
    return (
      this.options.directory.get(datasourceId) ?? {
        id: datasourceId,
        name,
        approvalsRequired: 1,
        approverRoles: [],
      }
    );
  }

  /** May `who` review requests on this datasource? Administrators always; others when `approverRoles` name them. */
  canReview(who: Reviewer, datasourceId: string): boolean {
    if (who.role === 'admin') return true;
    return listNames(this.policyFor(datasourceId).approverRoles, who);
  }

  /** May `who` read this request (its requester or one of its reviewers)? */
  canRead(who: Reviewer, a: Approval): boolean {
    return same(a.requester, who.username) || this.canReview(who, a.datasourceId);
  }

  /** Opens a pending request (or, with `reusePending`, answers the identical one still pending). */
  async request(input: NewApprovalRequest): Promise<Approval> {
    const repo = this.store();
    await this.expire();
    if (input.reusePending) {
      const open = await repo.findPending({
        datasourceId: input.datasource.id,
        requester: input.requester,
        statement: input.statement,
      });
      if (open && open.route === input.route) return open;
    }
    return repo.create({
      datasourceId: input.datasource.id,
      datasourceName: input.datasource.name,
      requester: input.requester,
      statement: input.statement,
      route: input.route,
      ...(input.guardrail ? { guardrail: input.guardrail } : {}),
      ...(input.dryRun ? { dryRun: input.dryRun } : {}),
      ...(input.ticket ? { ticket: input.ticket } : {}),
      ...(input.approvedBy ? { approvedBy: input.approvedBy } : {}),
      requestedAt: this.now().toISOString(),
    });
  }

  /**
   * Records a request approved by a trusted bot's `approvedBy` (bot rule 4): created and approved at once,
   * `reviewer` is the given label (e.g. `token:<name>`), `approvedBy` kept as declared.
   */
  async createApproved(
    input: NewApprovalRequest & { approvedBy: ReviewerMark[] },
    reviewerLabel: string,
  ): Promise<Approval> {
    const repo = this.store();
    const created = await this.request({ ...input, reusePending: false });
    const at = this.now();
    const done = await repo.update(created.id, created.version, {
      status: 'approved',
      reviewer: reviewerLabel,
      reviewedAt: at.toISOString(),
      windowUntil: new Date(at.getTime() + DEFAULT_WINDOW_MINUTES * 60_000).toISOString(),
    });
    if (!done) throw new HttpError(409, 'The request changed while it was being recorded', 'CONFLICT');
    return done;
  }

  /**
   * An approved request of exactly this text by this requester on this route (which also fixes the principal
   * kind: `bot` is token-only) whose window is open now.
   */
  async findOpenWindow(q: {
    datasourceId: string;
    requester: string;
    statement: string;
    route: string;
  }): Promise<Approval | undefined> {
    return this.store().findOpenWindow({ ...q, at: this.now() });
  }

  /** One request (expiry applied first); undefined when unknown. */
  async get(id: string): Promise<Approval | undefined> {
    const repo = this.store();
    await this.expire();
    return repo.get(id);
  }

  /**
   * Requests `who` may review (pending first, oldest first; then decisions, newest first), or with
   * `scope: 'mine'` the ones `who` asked for.
   */
  async list(
    who: Reviewer,
    q: { scope: 'review' | 'mine'; limit: number; offset: number },
  ): Promise<Approval[]> {
    const repo = this.store();
    await this.expire();
    if (q.scope === 'mine') return repo.list({ requester: who.username, limit: q.limit, offset: q.offset });
    if (who.role === 'admin') return repo.list({ limit: q.limit, offset: q.offset });
    const ids = this.options.directory
      .list()
      .filter((d) => listNames(d.approverRoles, who))
      .map((d) => d.id);
    return repo.list({ datasourceIds: ids, limit: q.limit, offset: q.offset });
  }

  /**
   * Decides a request per the state table. Throws HttpError: 503 without storage, 404 unknown id, 403 not a
   * reviewer of its datasource (audited `permission_denied`) or the reviewer is the requester, 409 already
   * decided or already approved by this reviewer, 400 a window outside 1..240 or a note over 2000 characters.
   */
  async decide(input: DecisionInput): Promise<Approval> {
    const repo = this.store();
    const windowMinutes = input.windowMinutes ?? DEFAULT_WINDOW_MINUTES;
    if (!Number.isInteger(windowMinutes) || windowMinutes < 1 || windowMinutes > MAX_WINDOW_MINUTES) {
      throw new HttpError(
        400,
        `windowMinutes must be an integer from 1 to ${MAX_WINDOW_MINUTES}`,
        'BAD_REQUEST',
      );
    }
    if (input.note !== undefined && input.note.length > MAX_NOTE_CHARS) {
      throw new HttpError(400, `note is at most ${MAX_NOTE_CHARS} characters`, 'BAD_REQUEST');
    }
    await this.expire();
    // A lost compare-and-set means someone decided at the same moment: re-read and apply the rules again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await repo.get(input.id);
      if (!current) throw new HttpError(404, 'Unknown approval request', 'NOT_FOUND');
      if (!this.canReview(input.reviewer, current.datasourceId)) {
        await this.auditDenied(input, current, 'not a reviewer of this datasource');
        throw new HttpError(403, 'You are not a reviewer of this datasource', 'FORBIDDEN');
      }
      if (same(current.requester, input.reviewer.username)) {
        await this.auditDenied(input, current, 'requester cannot review own request');
        throw new HttpError(403, 'You cannot review your own request', 'FORBIDDEN');
      }
      if (current.status !== 'pending') {
        throw new HttpError(409, `The request is already ${current.status}`, 'CONFLICT', {
          approval: publicApproval(current),
        });
      }
      const marks = current.approvals ?? [];
      if (input.decision === 'approve' && marks.some((m) => same(m.reviewer, input.reviewer.username))) {
        throw new HttpError(409, 'You already approved this request', 'CONFLICT', {
          approval: publicApproval(current),
        });
      }
      const at = this.now();
      const iso = at.toISOString();
      const required = this.policyFor(current.datasourceId, current.datasourceName).approvalsRequired;
      const note = input.note?.trim() ? { note: input.note.trim() } : {};
      let patch: Parameters<ApprovalRepository['update']>[2];
      let final = true;
      if (input.decision === 'reject') {
        patch = { status: 'rejected', reviewer: input.reviewer.username, reviewedAt: iso, ...note };
      } else {
        const approvals = [...marks, { reviewer: input.reviewer.username, at: iso }];
        if (approvals.length < required) {
          final = false;
          patch = { approvals, ...note };
        } else {
          patch = {
            status: 'approved',
            approvals,
            reviewer: input.reviewer.username,
            reviewedAt: iso,
            windowUntil: new Date(at.getTime() + windowMinutes * 60_000).toISOString(),
            ...note,
          };
        }
      }
      const updated = await repo.update(current.id, current.version, patch);
      if (!updated) continue;
      await this.options.audit?.record({
        type: 'approval_decision',
        actor: input.reviewer.username,
        connection: updated.datasourceId,
        result: 'success',
        approvalId: updated.id,
        decision: input.decision,
        status: updated.status,
        requester: updated.requester,
        ...(updated.guardrail ? { guardrail: updated.guardrail } : {}),
        ...(updated.windowUntil ? { windowUntil: updated.windowUntil } : {}),
      });
      await this.emit({ approval: updated, decision: input.decision, reviewer: input.reviewer, final });
      return updated;
    }
    throw new HttpError(409, 'The request is being decided by someone else; try again', 'CONFLICT');
  }

  /** Marks pending requests older than APPROVAL_TTL_HOURS expired; answers how many changed. */
  async expire(): Promise<number> {
    if (!this.repo) return 0;
    return this.repo.expirePending(this.options.ttlHours);
  }

  /** Runs `expire` every `intervalMs` (default one minute) until `stop`. */
  start(intervalMs = 60_000): void {
    if (this.timer || !this.repo) return;
    this.timer = setInterval(() => {
      this.expire().catch((err) => this.options.log?.error({ err }, 'approval expiry failed'));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Calls `listener` after every stored decision (the bot API enqueues approved requests and posts outcomes
   * to chat from here). Answers a function that removes it. Listener failures are logged, never thrown.
   */
  onDecided(listener: (e: DecisionEvent) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async emit(e: DecisionEvent): Promise<void> {
    for (const l of this.listeners) {
      try {
        await l(e);
      } catch (err) {
        this.options.log?.error({ err, approvalId: e.approval.id }, 'approval listener failed');
      }
    }
  }

  private async auditDenied(input: DecisionInput, a: Approval, reason: string): Promise<void> {
    try {
      await this.options.audit?.record({
        type: 'permission_denied',
        actor: input.reviewer.username,
        connection: a.datasourceId,
        result: 'failure',
        action: 'approval_decision',
        approvalId: a.id,
        reason,
      });
    } catch {
      // the audit sink logs its own failures
    }
  }
}

/** The spec's Approval record as answered over HTTP (no storage bookkeeping such as `version`). */
export function publicApproval(a: Approval): Record<string, unknown> {
  const { version: _version, ...rest } = a;
  return rest;
}
