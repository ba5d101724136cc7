// The database routes' request reading: bodies checked against the route schema without coercion
// (`strictBody`), the session (verified again here; the rate limit is server.ts's `databaseRateLimit`
// preHandler on these routes), the administrator check, and
// the checks of body fields whose rules are more than a JSON type (statement size, parameter values, ticket
// trimming, paging options, explain mode, query id), and the client-gone signal.

import { HttpError } from '@app/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Principal } from '../auth/principal.js';
import { MAX_STATEMENT_CHARS, type QueryDeps, TICKET_MAX } from '../execution/contracts.js';
import type { PageOptions } from '../execution/paging.js';
import type { ParamValue } from '../providers/types.js';

export async function sessionFor(deps: QueryDeps, request: FastifyRequest): Promise<Principal> {
  return deps.sessions.requireSession(request);
}

export function requireAdminRole(session: Principal): void {
  if (session.role !== 'admin') throw new HttpError(403, 'Administrator role required', 'FORBIDDEN');
}

export function checkStatementSize(sql: unknown): string {
  if (typeof sql !== 'string') throw new HttpError(400, 'sql must be a string', 'BAD_REQUEST');
  if (sql.length > MAX_STATEMENT_CHARS) {
    throw new HttpError(
      413,
      `Statement text is ${sql.length} characters; the limit is ${MAX_STATEMENT_CHARS}`,
      'PAYLOAD_TOO_LARGE',
    );
  }
  if (sql.trim() === '') throw new HttpError(400, 'sql is empty', 'BAD_REQUEST');
  return sql;
}

export function parseParams(params: unknown): ParamValue[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw new HttpError(400, 'params must be an array', 'BAD_REQUEST');
  params.forEach((p, i) => {
    const ok =
      p === null ||
      typeof p === 'string' ||
      typeof p === 'boolean' ||
      (typeof p === 'number' && Number.isFinite(p));
    if (!ok)
      throw new HttpError(400, `params[${i}] must be a string, number, boolean or null`, 'BAD_REQUEST');
  });
  return params as ParamValue[];
}

export function parseTicket(ticket: unknown): string | undefined {
  if (ticket === undefined || ticket === null) return undefined;
  if (typeof ticket !== 'string') throw new HttpError(400, 'ticket must be a string', 'BAD_REQUEST');
  const t = ticket.trim().slice(0, TICKET_MAX);
  return t === '' ? undefined : t;
}

export function parseOptions(options: unknown): PageOptions {
  if (options === undefined || options === null) return { offset: 0, unlimited: false };
  if (typeof options !== 'object' || Array.isArray(options))
    throw new HttpError(400, 'options must be an object', 'BAD_REQUEST');
  const o = options as Record<string, unknown>;
  const out: PageOptions = { offset: 0, unlimited: false };
  if (o.limit !== undefined) {
    if (!Number.isInteger(o.limit) || (o.limit as number) < 1)
      throw new HttpError(400, 'options.limit must be a positive integer', 'BAD_REQUEST');
    out.limit = o.limit as number;
  }
  if (o.offset !== undefined) {
    if (!Number.isInteger(o.offset) || (o.offset as number) < 0)
      throw new HttpError(400, 'options.offset must be a non-negative integer', 'BAD_REQUEST');
    out.offset = o.offset as number;
  }
  if (o.unlimited !== undefined) {
    if (typeof o.unlimited !== 'boolean')
      throw new HttpError(400, 'options.unlimited must be a boolean', 'BAD_REQUEST');
    out.unlimited = o.unlimited;
  }
  return out;
}

export function parseExplain(explain: unknown): 'estimate' | 'analyze' | undefined {
  if (explain === undefined) return undefined;
  const ok =
    typeof explain === 'object' &&
    explain !== null &&
    !Array.isArray(explain) &&
    Object.keys(explain).length === 1 &&
    ((explain as { mode?: unknown }).mode === 'estimate' ||
      (explain as { mode?: unknown }).mode === 'analyze');
  if (!ok)
    throw new HttpError(400, 'explain must be {"mode": "estimate"} or {"mode": "analyze"}', 'BAD_REQUEST');
  return (explain as { mode: 'estimate' | 'analyze' }).mode;
}

export function parseQueryId(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.length < 1 || v.length > 100)
    throw new HttpError(400, 'queryId must be a string of 1..100 characters', 'BAD_REQUEST');
  return v;
}

/**
 * Aborts when the client goes away before its answer is sent (the response closes unfinished), so the
 * pipeline cancels the statement and frees its slot instead of running on for nobody.
 */
export function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const raw = reply.raw;
  const onClose = () => {
    if (!raw.writableFinished) controller.abort();
  };
  raw.once('close', onClose);
  request.raw.once('aborted', () => controller.abort());
  return controller.signal;
}

type Checker = ReturnType<typeof Compile>;
const checkers = new WeakMap<object, Checker>();

/**
 * `preValidation` of the database routes: the JSON body is checked against the route's body schema with
 * TypeBox and no coercion first. The app's Ajv coerces (`?limit=5` becomes a number), which on a body would
 * quietly turn `{"sql": 42}` into "42" or `{"ticket": true}` into "true"; here a wrong type is 400.
 */
export async function strictBody(request: FastifyRequest): Promise<void> {
  const schema = (request.routeOptions.schema as { body?: object } | undefined)?.body;
  if (!schema) return;
  let check = checkers.get(schema);
  if (!check) {
    check = Compile(schema as TSchema);
    checkers.set(schema, check);
  }
  if (check.Check(request.body)) return;
  const e = [...check.Errors(request.body)][0];
  const path = e?.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : 'body';
  const missing = (e?.params as { requiredProperties?: string[] } | undefined)?.requiredProperties?.[0];
  const message = missing ? `${missing} is required` : `${path} ${e?.message ?? 'is invalid'}`;
  throw new HttpError(400, message, 'BAD_REQUEST');
}

/**
 * Route option for a route whose handler (or a parser below `http/`) already checks its input with the
 * spec's own messages: the route's request schema then documents the input for the OpenAPI description and
 * the generated types, and Fastify's validator (which coerces and words errors its own way) stays out of it.
 */
export const checkedByHandler = { validatorCompiler: () => () => true } as const;
