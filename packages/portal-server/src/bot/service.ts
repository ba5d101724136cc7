// POST /api/v1/executions and GET /api/v1/executions/{id} behind the routes (database-portal.md "Bot
// execution API" rules 1–8, state table "bot request"): a read no gate holds runs now (200); a request held
// by write approval, a guardrail, a review hold or a `requireApproval` token waits for reviewers (202
// pending, announced in chat); trusted `approvedBy` lifts write approval alone (202 approved with `jobId`).
import { randomUUID } from 'node:crypto';
import { HttpError } from '@app/kit';
import { toHttpError } from '../providers/errors.js';
import { engineFor } from '../providers/registry.js';
import type { ServiceToken } from '../storage/service-tokens.js';
import { type BotContext, classifyFor, datasourceForToken, tokenPrincipal } from './context.js';
import { queueChat, queueRun } from './outbox.js';
import { applyApproval, executeNow, judgeSubmission, requestApproval } from './runner.js';
import type { BotHold, BotRequest } from './types.js';
import { distinctReviewers, parseSubmission } from './validate.js';

export interface SubmitAnswer {
  status: 200 | 202;
  request: BotRequest;
}

/** Validates, classifies, applies the policy and answers per the state table. Refusals are HttpErrors. */
export async function submit(ctx: BotContext, token: ServiceToken, body: unknown): Promise<SubmitAnswer> {
  const sub = parseSubmission(body, {
    trustedApprovals: token.trustedApprovals,
    callbackHosts: ctx.callbacks.hosts,
    callbacksEnabled: Boolean(ctx.callbacks.secret),
  });
  const ds = datasourceForToken(ctx, token, sub.datasourceId);
  try {
    engineFor(ds.type);
  } catch (err) {
    throw toHttpError(err);
  }
  const classified = await classifyFor(ds, sub.statement);
  if (classified.classification.transactionControl) {
    throw new HttpError(
      400,
      'Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, …) is not accepted by the bot API; each statement runs on its own',
      'TRANSACTION_CONTROL',
    );
  }
  const principal = tokenPrincipal(token);
  // The pipeline's one verdict (governance decide(): guarded writes judged by their dry run, then the policy;
  // the masked-column rule, since bot results are always masked). A refusal is audited there and thrown.
  const verdict = await judgeSubmission(ctx, ds, token, classified, sub.onBehalfOf, sub.ticket);
  const hold = verdict.hold;
  const guardrail = hold?.guardrail;
  const approvalsRequired = ds.policy.approvalsRequired === 2 ? 2 : 1;
  // Trusted reviewers lift write approval only, and only when they are as many as the datasource needs.
  const trusted = sub.approvedBy !== undefined && distinctReviewers(sub.approvedBy) >= approvalsRequired;
  let waitFor: BotHold | undefined;
  if (guardrail) waitFor = 'guardrail';
  else if (sub.reviewReason) waitFor = 'review';
  else if (token.requireApproval) waitFor = 'token';
  else if (hold && !trusted) waitFor = 'write_approval';

  const common = {
    tokenId: token.id,
    tokenName: token.name,
    datasourceId: ds.id,
    statement: sub.statement,
    onBehalfOf: sub.onBehalfOf,
    ...(guardrail ? { guardrail } : {}),
    ...(sub.reviewReason ? { reviewReason: sub.reviewReason } : {}),
    ...(sub.approvedBy ? { approvedBy: sub.approvedBy } : {}),
    ...(sub.ticket ? { ticket: sub.ticket } : {}),
    ...(sub.reply ? { reply: sub.reply } : {}),
    ...(sub.callbackUrl ? { callbackUrl: sub.callbackUrl } : {}),
  };
  const approvalHold = {
    ...(guardrail ? { guardrail } : {}),
    ...(verdict.dryRun ? { dryRun: verdict.dryRun } : {}),
    ...(sub.approvedBy ? { approvedBy: sub.approvedBy } : {}),
  };

  if (waitFor) {
    // The pipeline opens the approval and writes its `approval_requested` line (runner.ts requestApproval).
    const id = randomUUID();
    const approval = await requestApproval(ctx, ds, token, classified, sub, approvalHold, {
      requestId: id,
      hold: waitFor,
    });
    const request = await ctx.requests.create({
      ...common,
      id,
      status: 'pending',
      hold: waitFor,
      approvalId: approval.id,
    });
    await queueChat(ctx, request.id, 'announce');
    return { status: 202, request };
  }
  if (hold && trusted && sub.approvedBy) {
    const approval = await ctx.approvals.createApproved(
      {
        datasource: { id: ds.id, name: ds.name },
        requester: sub.onBehalfOf,
        statement: sub.statement,
        route: 'bot',
        ...(sub.ticket ? { ticket: sub.ticket } : {}),
        ...approvalHold,
        approvedBy: sub.approvedBy,
      },
      principal.username,
    );
    const request = await ctx.requests.create({ ...common, status: 'approved', approvalId: approval.id });
    return { status: 202, request: await queueRun(ctx, request) };
  }
  // Nothing holds it: run now, through the governed pipeline (which takes the concurrency slot: 429 when full).
  const id = randomUUID();
  const outcome = await executeNow(ctx, ds, classified, {
    requestId: id,
    token,
    onBehalfOf: sub.onBehalfOf,
    ticket: sub.ticket,
    approvedBy: sub.approvedBy?.map((m) => m.reviewer),
  });
  const request = await ctx.requests.create({ ...common, id, status: 'approved', outcome });
  return { status: 200, request };
}

/**
 * The request `id` as its token sees it (404 for another token's request). A pending one is first brought
 * up to date with its approval, so a poll sees a decision or an expiry at once.
 */
export async function getForToken(ctx: BotContext, token: ServiceToken, id: string): Promise<BotRequest> {
  let r = await ctx.requests.get(id);
  if (!r || r.tokenId !== token.id) throw new HttpError(404, 'Unknown execution request', 'NOT_FOUND');
  if (r.status === 'pending' && r.approvalId) r = (await applyApproval(ctx, r.approvalId)) ?? r;
  return r;
}
