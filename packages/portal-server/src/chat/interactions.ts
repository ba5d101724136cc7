// Handles a chat interaction (database-portal.md "Chat interaction callback"): verify the signature over the
// timestamp and raw body (401 and audit `invalid_signature` otherwise), read the Approve/Reject press, and
// decide the request as reviewer `chat:<user_id>` when the datasource's `approverRoles` admit that principal.
// Every other case (not a reviewer, the requester, already decided, unknown request) is answered to the
// presser alone through the `response_url`. The decision itself flows on through the approval listeners.
import { HttpError } from '@app/kit';
import type { BotAudit, BotLog } from '../bot/context.js';
import type { BotRequestRepository } from '../bot/store.js';
import type { ApprovalService } from '../governance/approvals.js';
import type { ChatClient } from './client.js';
import { APPROVE_ACTION, REJECT_ACTION } from './messages.js';
import type { ChatSignatureVerifier } from './signature.js';

export interface InteractionDeps {
  verifier: ChatSignatureVerifier;
  requests: BotRequestRepository | undefined;
  approvals: ApprovalService;
  /** Answers through `response_url`; undefined only when chat is not configured at all. */
  client: ChatClient | undefined;
  audit: BotAudit;
  log: BotLog;
}

export interface InteractionInput {
  timestamp: unknown;
  signature: unknown;
  rawBody: string;
  ip: string;
}

export type InteractionAnswer = { status: 200 } | { status: 400 | 401; message: string; code: string };

interface Press {
  userId: string;
  names: string[];
  decision: 'approve' | 'reject';
  requestId: string;
  responseUrl?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a block_actions press from `payload=<json>`; undefined for other interactions (acknowledged, ignored). */
export function readPress(rawBody: string): Press | undefined | 'malformed' {
  let payload: unknown;
  try {
    const text = new URLSearchParams(rawBody).get('payload');
    if (!text) return 'malformed';
    payload = JSON.parse(text);
  } catch {
    return 'malformed';
  }
  if (!isObject(payload)) return 'malformed';
  if (payload.type !== 'block_actions') return undefined;
  const user = payload.user;
  const actions = payload.actions;
  if (!isObject(user) || typeof user.id !== 'string' || user.id === '' || !Array.isArray(actions)) {
    return 'malformed';
  }
  const action = actions.find(
    (a) => isObject(a) && (a.action_id === APPROVE_ACTION || a.action_id === REJECT_ACTION),
  ) as Record<string, unknown> | undefined;
  if (!action || typeof action.value !== 'string') return undefined;
  const names = [user.username, user.name].filter((n): n is string => typeof n === 'string' && n !== '');
  return {
    userId: user.id.slice(0, 100),
    names,
    decision: action.action_id === APPROVE_ACTION ? 'approve' : 'reject',
    requestId: action.value.slice(0, 100),
    ...(typeof payload.response_url === 'string' ? { responseUrl: payload.response_url } : {}),
  };
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Is the presser the person the request was made for (by chat id, `chat:` principal or chat name)? */
export function isRequester(onBehalfOf: string, press: Pick<Press, 'userId' | 'names'>): boolean {
  return [press.userId, `chat:${press.userId}`, ...press.names].some((n) => same(n, onBehalfOf));
}

export class InteractionHandler {
  constructor(private readonly d: InteractionDeps) {}

  async handle(input: InteractionInput): Promise<InteractionAnswer> {
    const check = this.d.verifier.verify(input.timestamp, input.signature, input.rawBody);
    if (!check.ok) {
      await this.d.audit.record({
        type: 'invalid_signature',
        actor: null,
        result: 'failure',
        route: '/api/chat/interactions',
        reason: check.reason,
        ip: input.ip,
      });
      return { status: 401, message: 'Invalid or missing chat signature', code: 'INVALID_SIGNATURE' };
    }
    const press = readPress(input.rawBody);
    if (press === 'malformed') {
      return {
        status: 400,
        message: 'Expected a form body with payload=<interaction JSON>',
        code: 'BAD_REQUEST',
      };
    }
    if (!press) return { status: 200 };
    await this.decide(press);
    return { status: 200 };
  }

  private async decide(press: Press): Promise<void> {
    const reviewer = `chat:${press.userId}`;
    const r = this.d.requests ? await this.d.requests.get(press.requestId) : undefined;
    if (!r?.approvalId) return this.tell(press, 'This request is not known to the portal.');
    if (r.status !== 'pending') return this.tell(press, `This request is already ${r.status}.`);
    if (isRequester(r.onBehalfOf, press)) {
      await this.d.audit.record({
        type: 'permission_denied',
        actor: reviewer,
        connection: r.datasourceId,
        result: 'failure',
        action: 'approval_decision',
        approvalId: r.approvalId,
        requestId: r.id,
        reason: 'the requester cannot review their own request',
      });
      return this.tell(press, 'You cannot approve or reject a request made on your behalf.');
    }
    try {
      const a = await this.d.approvals.decide({
        id: r.approvalId,
        reviewer: { username: reviewer },
        decision: press.decision,
      });
      if (a.status === 'pending') {
        const have = a.approvals?.length ?? 0;
        const need = this.d.approvals.policyFor(a.datasourceId, a.datasourceName).approvalsRequired;
        await this.tell(
          press,
          `Your approval is recorded (${have} of ${need}); waiting for another reviewer.`,
        );
      }
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      const message =
        err.statusCode === 403
          ? err.message === 'You cannot review your own request'
            ? 'You cannot approve or reject a request made on your behalf.'
            : 'You are not a reviewer for this datasource.'
          : err.statusCode === 409
            ? err.message
            : err.statusCode === 404
              ? 'This request is not known to the portal.'
              : 'The portal could not record your decision; try again later.';
      await this.tell(press, message);
    }
  }

  /** A private answer to the presser only (ephemeral, the original message left as it is). */
  private async tell(press: Press, text: string): Promise<void> {
    if (!press.responseUrl || !this.d.client) return;
    const url = press.responseUrl;
    // Not awaited: the chat platform wants the interaction acknowledged within a few seconds.
    this.d.client
      .respond(url, { response_type: 'ephemeral', replace_original: false, text })
      .catch((err) => this.d.log.warn({ error: (err as Error).message }, 'chat response_url post failed'));
  }
}
