// The governance hooks the execution pipeline calls (src/execution/contracts.ts GovernanceHooks): `decide()`
// (decide.ts: classify the request's whole text, evaluate the datasource policy) then `admit()`: turn a hold into a pending approval
// (403 APPROVAL_REQUIRED) unless an approval window for this exact text is open, take a concurrency slot,
// prepare the maskers of every statement, make the engine refuse writes where the policy says reads only
// (and withhold engine messages that could echo masked values: withheld-messages.ts), apply the export rule
// and hide objects on the object surface (object-visibility.ts). `requestApproval` is the one writer of
// `approval_requested`: admit() calls it for a held session request, the bot API through the pipeline.
import { HttpError } from '@app/kit';
import type { Principal } from '../auth/principal.js';
import type { DatasourcePolicy, MaskingRule } from '../datasources/types.js';
import type {
  ApprovalHold,
  AuditSink,
  ExecutionContext,
  GovernanceHooks,
  JudgedRequest,
} from '../execution/contracts.js';
import type { Provider, ProviderSession } from '../providers/types.js';
import type { Approval, DryRunCount } from '../storage/approvals.js';
import { type ApprovalService, publicApproval } from './approvals.js';
import { dialectForEngine, type ScriptClassification } from './classify/index.js';
import type { ConcurrencyLimiter } from './concurrency.js';
import { decide, maskedPredicateRefusal, policyRoute, type Verdict } from './decide.js';
import { mayExport, onlyReads } from './export-rules.js';
import { mentionsMasked, type StatementMasker, statementMasker } from './masking.js';
import { isHiddenObject } from './object-visibility.js';
import type { PolicyDeny } from './policy.js';
import { readOnlyIsCheap, readOnlyProvider } from './read-only.js';
import { classifyRequest, policyDatasource } from './request.js';
import { withholdProvider, withholdSession } from './withheld-messages.js';

const STATE = Symbol('governance');

/** What `beforeExecute` learnt, carried on the context (spread copies keep it: the key is enumerable). */
interface ExecutionState {
  policy: DatasourcePolicy;
  classification: ScriptClassification;
  maskers: StatementMasker[];
  /** Engine messages of these statements may echo masked values. */
  withholdErrors: boolean;
  /** Run in the engine's read-only mode. */
  readOnly: boolean;
  release?: () => void;
  approval?: { id: string; reviewers: string[] };
  /** The dry run's counts (shown on the approval request). */
  dryRun?: DryRunCount[];
  /** The approved dry run's counts: the run may report no more affected rows per statement. */
  approvedCounts?: DryRunCount[];
}

type WithState = ExecutionContext & { [STATE]?: ExecutionState };

export interface PolicyHooksOptions {
  approvals: ApprovalService;
  concurrency: ConcurrencyLimiter;
  audit: AuditSink;
  /** Key of the `hash` masking rule (HMAC), derived from a server secret. */
  maskingKey: Buffer;
  now?: () => Date;
}

const AUDIT_TEXT_MAX = 2_000;

export class PolicyHooks implements GovernanceHooks {
  constructor(private readonly options: PolicyHooksOptions) {}

  /** decide() then admit(): the one verdict, then the approval window, the maskers and the slot. */
  async beforeExecute(ctx: ExecutionContext, refusalFields?: Record<string, unknown>): Promise<void> {
    const verdict = await decide(ctx, this.options.now?.());
    await this.admit(ctx, verdict, refusalFields);
  }

  /**
   * The verdict alone (GovernanceHooks.judge): decide(), a refusal audited and thrown as admit does. On the
   * bot route the masked-column rule comes first (bot results are always masked, so a masked column may not
   * steer them), as admit applies it once the maskers are ready.
   */
  async judge(ctx: ExecutionContext, refusalFields: Record<string, unknown> = {}): Promise<JudgedRequest> {
    const verdict = await decide(ctx, this.options.now?.());
    if (ctx.route === 'bot') {
      const masked = maskedPredicateRefusal(ctx, verdict.classification);
      if (masked) {
        await this.audit({
          type: 'permission_denied',
          actor: ctx.session.username,
          connection: verdict.datasource.id,
          result: 'failure',
          route: ctx.route,
          code: 'MASKED_COLUMN_PREDICATE',
          reason: masked.message,
          statement: ctx.statements[masked.statementIndex].slice(0, AUDIT_TEXT_MAX),
          ...refusalFields,
        });
        throw new HttpError(403, masked.message, 'MASKED_COLUMN_PREDICATE');
      }
    }
    if ('refuse' in verdict) await this.refuse(ctx, verdict.datasource.id, verdict.refuse, refusalFields);
    return {
      classification: verdict.classification,
      ...(verdict.dryRun ? { dryRun: verdict.dryRun } : {}),
      ...('hold' in verdict ? { hold: verdict.hold } : {}),
    };
  }

  /** Audits a refusal (its `audit` type, code and reason, the statement) and throws it. */
  private async refuse(
    ctx: ExecutionContext,
    datasourceId: string,
    d: PolicyDeny,
    fields: Record<string, unknown> = {},
  ): Promise<never> {
    await this.audit({
      type: d.audit,
      actor: ctx.session.username,
      connection: datasourceId,
      result: 'failure',
      route: policyRoute(ctx.route),
      code: d.code,
      reason: d.message,
      statement: (ctx.sql ?? ctx.statements.join('\n;\n')).slice(0, AUDIT_TEXT_MAX),
      ...(ctx.ticket ? { ticket: ctx.ticket } : {}),
      ...(d.details ?? {}),
      ...fields,
    });
    throw new HttpError(d.status, d.message, d.code);
  }

  /**
   * Admits a decided request: a refusal is audited and thrown; a hold runs only inside an open approval window
   * for this exact text (else a pending approval, 403 APPROVAL_REQUIRED); then the engine's read-only mode, the
   * maskers (and the masked-column rule), and last the concurrency slot (429), released by afterExecute.
   */
  async admit(
    ctx: ExecutionContext,
    verdict: Verdict,
    refusalFields?: Record<string, unknown>,
  ): Promise<void> {
    const ds = verdict.datasource;
    const policy = ctx.policy;
    const sql = ctx.sql ?? ctx.statements.join('\n;\n');
    const classification = verdict.classification;
    const state: ExecutionState = {
      policy,
      classification,
      maskers: [],
      withholdErrors: false,
      readOnly: false,
      ...(verdict.dryRun ? { dryRun: verdict.dryRun } : {}),
    };
    if ('refuse' in verdict) await this.refuse(ctx, ds.id, verdict.refuse, refusalFields);
    if ('hold' in verdict && ctx.approval) {
      // The caller holds an approval for this text already (a bot request approved through its own flow);
      // when that approval was given on a dry run's counts, the run is held to them as a session's is.
      state.approval = { id: ctx.approval.id ?? '', reviewers: ctx.approval.reviewers };
      const approvals = this.options.approvals;
      const given = ctx.approval.id && approvals.available ? await approvals.get(ctx.approval.id) : undefined;
      if (given?.dryRun) state.approvedCounts = given.dryRun;
    } else if ('hold' in verdict) {
      const approvals = this.options.approvals;
      if (!approvals.available) {
        throw new HttpError(
          503,
          `${verdict.hold.reason}, and approvals need server storage (STORAGE_PROVIDER sqlite or postgres)`,
          'STORAGE_UNAVAILABLE',
        );
      }
      // The window is the one opened for this route by a signed-in person (never a bot's, whose requester
      // is only the name the bot sent in onBehalfOf).
      const open = await approvals.findOpenWindow({
        datasourceId: ds.id,
        requester: ctx.session.username,
        statement: sql,
        route: ctx.route,
      });
      if (!open) {
        const pending = await this.requestApproval(ctx, {
          reusePending: true,
          ...(verdict.hold.guardrail ? { guardrail: verdict.hold.guardrail } : {}),
          ...(state.dryRun ? { dryRun: state.dryRun } : {}),
        });
        throw new HttpError(403, verdict.hold.reason, 'APPROVAL_REQUIRED', {
          approval: publicApproval(pending),
          ...(verdict.hold.guardrail ? { guardrail: verdict.hold.guardrail } : {}),
        });
      }
      const reviewers = open.approvals?.map((a) => a.reviewer) ?? (open.reviewer ? [open.reviewer] : []);
      state.approval = { id: open.id, reviewers };
      if (open.dryRun) state.approvedCounts = open.dryRun;
    }
    // Reads on a datasource that gates writes run where the engine refuses writes (the last line) when that
    // is cheap; on a read-only datasource always.
    const gated =
      policy.readOnly ||
      policy.writeApproval ||
      policy.requireTicket ||
      policy.freezeWindows.length > 0 ||
      policy.guardrails;
    // The bot API and the agent's profile run every read where the engine refuses writes.
    const readsGuarded = ctx.route === 'bot' || ctx.readOnlyProfile === true;
    state.readOnly =
      policy.readOnly ||
      ctx.readOnlyProfile === true ||
      (!classification.isWrite && (readsGuarded || (gated && readOnlyIsCheap(ctx.engine))));
    await this.prepareMasking(ctx, state, ds.id);
    // Last: the concurrency slot (429), released by afterExecute.
    state.release = this.options.concurrency.acquire(ds.id, policy.maxConcurrent);
    (ctx as WithState)[STATE] = state;
  }

  /**
   * Opens the pending approval of a held request — for `ctx.requester` (bot `onBehalfOf`) or the principal —
   * and writes its one `approval_requested` line (the actor is the principal; `auditFields` added last).
   */
  async requestApproval(
    ctx: ExecutionContext,
    hold: ApprovalHold,
    auditFields: Record<string, unknown> = {},
  ): Promise<Approval> {
    const ds = policyDatasource(ctx);
    const pending = await this.options.approvals.request({
      datasource: { id: ds.id, name: ds.name },
      requester: ctx.requester ?? ctx.session.username,
      statement: ctx.sql ?? ctx.statements.join('\n;\n'),
      route: ctx.route,
      ...(hold.reusePending ? { reusePending: true } : {}),
      ...(hold.guardrail ? { guardrail: hold.guardrail } : {}),
      ...(hold.dryRun ? { dryRun: hold.dryRun } : {}),
      ...(ctx.ticket ? { ticket: ctx.ticket } : {}),
      ...(hold.approvedBy ? { approvedBy: hold.approvedBy } : {}),
    });
    await this.audit({
      type: 'approval_requested',
      actor: ctx.session.username,
      connection: ds.id,
      result: 'success',
      route: policyRoute(ctx.route),
      approvalId: pending.id,
      ...(hold.guardrail ? { guardrail: hold.guardrail } : {}),
      ...auditFields,
    });
    return pending;
  }

  affectedCeiling(ctx: ExecutionContext, index: number): number | undefined {
    const counts = (ctx as WithState)[STATE]?.approvedCounts?.filter((n) => n.statement === index);
    if (!counts || counts.length === 0) return undefined;
    return counts.reduce((sum, n) => sum + n.reported, 0);
  }

  private async prepareMasking(
    ctx: ExecutionContext,
    state: ExecutionState,
    datasourceId: string,
  ): Promise<void> {
    const rules: MaskingRule[] = state.policy.masking;
    if (rules.length === 0) return;
    const dialect = dialectForEngine(ctx.engine);
    const stmts = state.classification.statements;
    state.maskers = await Promise.all(
      ctx.statements.map((text, i) =>
        statementMasker(rules, dialect, stmts[i], this.options.maskingKey, text),
      ),
    );
    state.withholdErrors = ctx.statements.some((text, i) => mentionsMasked(rules, dialect, stmts[i], text));
    // Whoever sees the columns masked (everyone, except an administrator's export with `reveal`) may not
    // steer by them: a WHERE probe or an ORDER BY would reveal the hidden values row by row.
    if (ctx.reveal && this.revealAllowed(ctx.session)) return;
    const refused = maskedPredicateRefusal(ctx, state.classification);
    if (!refused) return;
    await this.audit({
      type: 'permission_denied',
      actor: ctx.session.username,
      connection: datasourceId,
      result: 'failure',
      route: ctx.route,
      code: 'MASKED_COLUMN_PREDICATE',
      reason: refused.message,
      statement: ctx.statements[refused.statementIndex].slice(0, AUDIT_TEXT_MAX),
    });
    throw new HttpError(403, refused.message, 'MASKED_COLUMN_PREDICATE');
  }

  masks(ctx: ExecutionContext): boolean {
    const m = this.maskerOf(ctx);
    return m !== undefined && !m.empty;
  }

  afterExecute(ctx: ExecutionContext): void {
    (ctx as WithState)[STATE]?.release?.();
  }

  auditFields(ctx: ExecutionContext): Record<string, unknown> {
    const s = (ctx as WithState)[STATE];
    const out: Record<string, unknown> = {};
    if (s?.approval) {
      out.approved_by = s.approval.reviewers;
      if (s.approval.id) out.approvalId = s.approval.id;
    }
    if (ctx.reveal && this.revealAllowed(ctx.session)) out.revealed = true;
    return out;
  }

  maskRows(
    ctx: ExecutionContext,
    fields: string[],
    rows: Record<string, unknown>[],
  ): Record<string, unknown>[] {
    const masker = this.maskerOf(ctx);
    return masker ? masker.maskObjects(fields, rows) : rows;
  }

  exportRowMasker(ctx: ExecutionContext, fields: string[]): ((row: unknown[]) => unknown[]) | undefined {
    if (ctx.reveal && this.revealAllowed(ctx.session)) return undefined;
    return this.maskerOf(ctx)?.arrayMasker(fields);
  }

  /** `reveal` on an export is honoured for administrators only (and audited as `revealed`). */
  private revealAllowed(session: Principal): boolean {
    return session.role === 'admin';
  }

  private maskerOf(ctx: ExecutionContext): StatementMasker | undefined {
    const s = (ctx as WithState)[STATE];
    if (!s) return undefined;
    return s.maskers[ctx.statementIndex ?? 0];
  }

  async checkExport(ctx: ExecutionContext): Promise<void> {
    const ds = policyDatasource(ctx);
    const policy = ctx.policy;
    if (mayExport(ctx.session, { exportRoles: policy.exportRoles, environment: ds.environment })) {
      // Exports are reads judged by the allowlist, as every other route is (not by the export's own SELECT
      // reader): a statement it classifies as a write or cannot read surely is refused before anything runs.
      // The classification is kept on the context, so beforeExecute does not parse the text again.
      const sql = ctx.sql ?? ctx.statements.join('\n;\n');
      ctx.classification ??= await classifyRequest(
        sql,
        ctx.engine,
        ctx.statements,
        policy.objectRules?.defaultSchema,
      );
      if (!onlyReads(ctx.classification)) {
        throw new HttpError(400, 'Only a statement that only reads can be exported', 'EXPORT_NOT_READ_ONLY');
      }
      return;
    }
    await this.audit({
      type: 'export_not_allowed',
      actor: ctx.session.username,
      connection: ds.id,
      result: 'failure',
      route: 'export',
      statement: (ctx.sql ?? ctx.statements.join('\n;\n')).slice(0, AUDIT_TEXT_MAX),
    });
    throw new HttpError(403, `You may not export from ${ds.name}`, 'EXPORT_NOT_ALLOWED');
  }

  isObjectVisible(ctx: ExecutionContext, path: readonly string[]): boolean {
    if (ctx.session.role === 'admin') return true;
    return !isHiddenObject(ctx.policy.objectRules, path);
  }

  wrapProvider(ctx: ExecutionContext, provider: Provider): Provider {
    const s = (ctx as WithState)[STATE];
    // Transaction `begin` comes without beforeExecute: a read-only datasource opens a read-only transaction.
    const readOnly = s ? s.readOnly : ctx.policy.readOnly;
    const p = readOnly ? readOnlyProvider(provider) : provider;
    return s?.withholdErrors ? withholdProvider(p) : p;
  }

  wrapSession(ctx: ExecutionContext, session: ProviderSession): ProviderSession {
    return (ctx as WithState)[STATE]?.withholdErrors ? withholdSession(session) : session;
  }

  private async audit(event: Parameters<AuditSink['record']>[0]): Promise<void> {
    try {
      await this.options.audit.record(event);
    } catch {
      // the sink logs its own failures; a refusal still answers
    }
  }
}
