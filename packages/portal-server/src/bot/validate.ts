// Reads a POST /api/v1/executions body into a checked submission (database-portal.md "Bot execution API"
// rules 1–5, Limits): statement size, onBehalfOf, review reason, trusted approvedBy, reply thread, callback
// URL on an allowed HTTPS host, ticket. Pure: every problem is an HttpError the route answers as is.
import { HttpError } from '@app/kit';
import type { ReplyTarget, ReviewerMark } from './types.js';

export const BOT_STATEMENT_MAX = 32_000;
export const REVIEW_REASON_MAX = 500;
export const APPROVED_BY_MAX = 10;
export const REVIEWER_MAX = 200;
export const ON_BEHALF_OF_MAX = 320;
export const TICKET_MAX = 120;
const CALLBACK_URL_MAX = 2048;

export interface BotSubmission {
  datasourceId: string;
  statement: string;
  onBehalfOf: string;
  reply?: ReplyTarget;
  callbackUrl?: string;
  reviewReason?: string;
  approvedBy?: ReviewerMark[];
  ticket?: string;
}

export interface SubmitRules {
  /** The token was created with `trustedApprovals`. */
  trustedApprovals: boolean;
  /** CALLBACK_ALLOWED_HOSTS, parsed. */
  callbackHosts: HostRule[];
  /** Callbacks are signed; without CALLBACK_SIGNING_SECRET none is accepted. */
  callbacksEnabled: boolean;
}

const bad = (message: string) => new HttpError(400, message, 'BAD_REQUEST');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function optionalObject(v: unknown, name: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw bad(`${name} must be an object`);
  return v;
}

function text(v: unknown, name: string, max: number): string {
  if (typeof v !== 'string') throw bad(`${name} must be a string`);
  const t = v.trim();
  if (t === '') throw bad(`${name} must not be empty`);
  if (t.length > max) throw bad(`${name} is at most ${max} characters`);
  return t;
}

// ISO 8601: a calendar date, optionally with a time and then a zone (Z or ±hh[:]mm).
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?))?$/i;

/** An ISO 8601 instant normalised to UTC, or undefined when unparseable. */
export function parseIsoInstant(v: unknown): string | undefined {
  if (typeof v !== 'string' || !ISO_8601.test(v.trim())) return undefined;
  const text = v.trim();
  // Date.parse rolls impossible days over (Feb 30 → Mar 2); the calendar date must exist as written.
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return undefined;
  const ms = Date.parse(text.replace(',', '.').replace(' ', 'T'));
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function parseApprovedBy(v: unknown, rules: SubmitRules, onBehalfOf: string): ReviewerMark[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!rules.trustedApprovals) {
    throw bad('approvedBy is accepted only from a service token created with trustedApprovals');
  }
  if (!Array.isArray(v)) throw bad('approvedBy must be an array of {reviewer, at}');
  if (v.length === 0) throw bad('approvedBy must name at least one reviewer');
  if (v.length > APPROVED_BY_MAX) throw bad(`approvedBy holds at most ${APPROVED_BY_MAX} entries`);
  return v.map((entry, i) => {
    if (!isObject(entry)) throw bad(`approvedBy[${i}] must be an object {reviewer, at}`);
    if (typeof entry.reviewer !== 'string' || entry.reviewer.trim() === '') {
      throw bad(`approvedBy[${i}].reviewer is required`);
    }
    // Limits: the reviewer is trimmed to 200 characters (cut, not refused).
    const reviewer = entry.reviewer.trim().slice(0, REVIEWER_MAX);
    const at = parseIsoInstant(entry.at);
    if (!at) throw bad(`approvedBy[${i}].at must be an ISO 8601 timestamp`);
    if (same(reviewer, onBehalfOf)) {
      throw bad(`approvedBy[${i}] names onBehalfOf; the requester cannot approve their own request`);
    }
    return { reviewer, at };
  });
}

function parseReply(v: unknown): ReplyTarget | undefined {
  const o = optionalObject(v, 'reply');
  if (!o) return undefined;
  const channel = text(o.channel, 'reply.channel', 200);
  if (o.threadTs === undefined || o.threadTs === null) return { channel };
  return { channel, threadTs: text(o.threadTs, 'reply.threadTs', 100) };
}

function parseReview(v: unknown): string | undefined {
  const o = optionalObject(v, 'review');
  if (!o) return undefined;
  if (typeof o.reason !== 'string' || o.reason.trim() === '') {
    throw bad('review.reason is required (1..500 characters) when review is sent');
  }
  return text(o.reason, 'review.reason', REVIEW_REASON_MAX);
}

function parseTicket(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad('ticket must be a string');
  const t = v.trim().slice(0, TICKET_MAX);
  return t === '' ? undefined : t;
}

// ---- callback hosts -----------------------------------------------------------------------------------------

/** One CALLBACK_ALLOWED_HOSTS entry: an exact host, a `*.suffix` wildcard, optionally with a port. */
export interface HostRule {
  host: string;
  wildcard: boolean;
  port?: string;
}

/** Parses CALLBACK_ALLOWED_HOSTS (comma or whitespace separated; `host`, `host:port`, `*.example.com`). */
export function parseAllowedHosts(value: string | undefined): HostRule[] {
  if (!value) return [];
  const out: HostRule[] = [];
  for (const raw of value.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    // `[::1]:8443`, `[::1]`, `host:8443`, `host`
    const m = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(entry);
    if (!m) continue;
    const host = m[1];
    const wildcard = host.startsWith('*.');
    out.push({ host: wildcard ? host.slice(1) : host, wildcard, ...(m[2] ? { port: m[2] } : {}) });
  }
  return out;
}

/** Whether an https URL's host (and port) is on the list. */
export function hostAllowed(url: URL, rules: readonly HostRule[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || '443';
  return rules.some((r) => {
    const hostOk = r.wildcard ? host.endsWith(r.host) && host.length > r.host.length : host === r.host;
    return hostOk && (r.port === undefined || r.port === port);
  });
}

function parseCallback(v: unknown, rules: SubmitRules): string | undefined {
  const o = optionalObject(v, 'callback');
  if (!o) return undefined;
  if (typeof o.url !== 'string' || o.url.length > CALLBACK_URL_MAX) {
    throw bad(`callback.url must be a URL of at most ${CALLBACK_URL_MAX} characters`);
  }
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw bad('callback.url is not a valid URL');
  }
  if (url.protocol !== 'https:') throw bad('callback.url must use https');
  if (url.username || url.password) throw bad('callback.url must not carry credentials');
  if (!rules.callbacksEnabled) {
    throw bad('Callbacks are not configured on this portal (CALLBACK_SIGNING_SECRET is not set)');
  }
  if (!hostAllowed(url, rules.callbackHosts)) {
    throw bad(`callback.url host ${url.host} is not in CALLBACK_ALLOWED_HOSTS`);
  }
  return url.toString();
}

// ---- the body ------------------------------------------------------------------------------------------------

/** Checks a request body; throws 400 (or 413 for a statement over 32000 characters). */
export function parseSubmission(body: unknown, rules: SubmitRules): BotSubmission {
  if (!isObject(body)) throw bad('The body must be a JSON object');
  if (typeof body.datasourceId !== 'string' || body.datasourceId.trim() === '') {
    throw bad('datasourceId is required');
  }
  const datasourceId = body.datasourceId.trim();
  if (datasourceId.length > 200) throw bad('datasourceId is at most 200 characters');
  if (typeof body.statement !== 'string') throw bad('statement is required');
  if (body.statement.length > BOT_STATEMENT_MAX) {
    throw new HttpError(
      413,
      `statement is ${body.statement.length} characters; the bot API accepts at most ${BOT_STATEMENT_MAX}`,
      'PAYLOAD_TOO_LARGE',
    );
  }
  if (body.statement.trim() === '') throw bad('statement is empty');
  if (body.onBehalfOf === undefined || body.onBehalfOf === null) throw bad('onBehalfOf is required');
  const onBehalfOf = text(body.onBehalfOf, 'onBehalfOf', ON_BEHALF_OF_MAX);
  const out: BotSubmission = { datasourceId, statement: body.statement, onBehalfOf };
  const reply = parseReply(body.reply);
  if (reply) out.reply = reply;
  const callbackUrl = parseCallback(body.callback, rules);
  if (callbackUrl) out.callbackUrl = callbackUrl;
  const reviewReason = parseReview(body.review);
  if (reviewReason) out.reviewReason = reviewReason;
  const approvedBy = parseApprovedBy(body.approvedBy, rules, onBehalfOf);
  if (approvedBy) out.approvedBy = approvedBy;
  const ticket = parseTicket(body.ticket);
  if (ticket) out.ticket = ticket;
  return out;
}

/** Distinct reviewers of an approvedBy list (case-insensitive), for the datasource's `approvalsRequired`. */
export function distinctReviewers(marks: readonly ReviewerMark[]): number {
  return new Set(marks.map((m) => m.reviewer.toLowerCase())).size;
}
