// Service tokens (admin; database-portal.md "Service tokens (admin)", decisions.md "Service token creation"):
// list, create (201 `{token, secret}` — the `pst_` secret is shown once and only its hash is stored) and
// revoke. Every change is audited `service_token` (never with the secret).
import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { BotAudit } from '../bot/context.js';
import type { ServiceToken, ServiceTokenRepository } from '../storage/service-tokens.js';
import { requireAdmin } from './guard.js';
import { checkedByHandler } from './request-input.js';
import { errorResponses, ServiceTokenCreated, ServiceTokenList, Success } from './response-schemas.js';

/** Role of a token created without one: the least privileged (object rules hold it; see docs/portal-bot.md). */
export const DEFAULT_TOKEN_ROLE = 'user';
const NAME_MAX = 200;
const GROUPS_MAX = 50;
const DATASOURCES_MAX = 500;
const DATASOURCE_ID = /^[a-z0-9-]{1,64}$/;

export interface ServiceTokenRouteDeps {
  /** Undefined without server storage: every route answers 503. */
  tokens: ServiceTokenRepository | undefined;
  audit: BotAudit;
}

/** The token as decisions.md shapes it (no hash, no bookkeeping beyond what it names). */
export function publicToken(t: ServiceToken) {
  return {
    id: t.id,
    name: t.name,
    role: t.role,
    groups: t.groups,
    datasources: t.datasources,
    requireApproval: t.requireApproval,
    trustedApprovals: t.trustedApprovals,
    created_at: t.created_at,
    prefix: t.prefix,
    last_used_at: t.last_used_at,
  };
}

const bad = (message: string) => new HttpError(400, message, 'BAD_REQUEST');

function stringList(v: unknown, name: string, max: number, check?: (s: string) => boolean): string[] {
  if (!Array.isArray(v)) throw bad(`${name} must be an array of strings`);
  if (v.length > max) throw bad(`${name} holds at most ${max} entries`);
  const out = v.map((x, i) => {
    if (typeof x !== 'string' || x.trim() === '' || x.length > NAME_MAX) {
      throw bad(`${name}[${i}] must be a non-empty string of at most ${NAME_MAX} characters`);
    }
    const t = x.trim();
    if (check && !check(t)) throw bad(`${name}[${i}] is not a datasource id ([a-z0-9-]{1,64})`);
    return t;
  });
  return [...new Set(out)];
}

function optionalBool(v: unknown, name: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw bad(`${name} must be a boolean`);
  return v;
}

export function parseTokenBody(body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('The body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.name !== 'string' || b.name.trim() === '') throw bad('name is required');
  const name = b.name.trim();
  if (name.length > NAME_MAX) throw bad(`name is at most ${NAME_MAX} characters`);
  let role = DEFAULT_TOKEN_ROLE;
  if (b.role !== undefined && b.role !== null) {
    if (b.role !== 'admin' && b.role !== 'user') throw bad('role must be "admin" or "user"');
    role = b.role;
  }
  return {
    name,
    role,
    groups: b.groups === undefined || b.groups === null ? [] : stringList(b.groups, 'groups', GROUPS_MAX),
    // Absent or null: every datasource the role may use; a list: only those.
    datasources:
      b.datasources === undefined || b.datasources === null
        ? null
        : stringList(b.datasources, 'datasources', DATASOURCES_MAX, (s) => DATASOURCE_ID.test(s)),
    requireApproval: optionalBool(b.requireApproval, 'requireApproval'),
    trustedApprovals: optionalBool(b.trustedApprovals, 'trustedApprovals'),
  };
}

const storageUnavailable = () =>
  new HttpError(
    503,
    'Service tokens need server storage (STORAGE_PROVIDER sqlite or postgres)',
    'STORAGE_UNAVAILABLE',
  );

const StringList = (max: number, description: string) =>
  Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: NAME_MAX }), { maxItems: max }), Type.Null()], {
      description,
    }),
  );
/** The documented create body; `parseTokenBody` checks it (after the administrator check) in its own words. */
const TokenBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: NAME_MAX, description: 'unique among live tokens' }),
  role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('user'), Type.Null()])),
  groups: StringList(GROUPS_MAX, 'groups the token acts with'),
  datasources: StringList(
    DATASOURCES_MAX,
    'allowlist of datasource ids; absent: every datasource the role may use',
  ),
  requireApproval: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  trustedApprovals: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});
const ERRORS = errorResponses(400, 401, 403, 404, 409, 503);

export function registerServiceTokenRoutes(app: FastifyInstance, deps: ServiceTokenRouteDeps): void {
  const store = () => {
    if (!deps.tokens) throw storageUnavailable();
    return deps.tokens;
  };

  app.get(
    '/api/admin/service-tokens',
    {
      schema: {
        tags: ['admin'],
        summary: 'List service tokens',
        description:
          'Administrators only. Answers `{tokens: [token]}` (live tokens, oldest first; never a secret).',
        response: { 200: ServiceTokenList, ...ERRORS },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return { tokens: (await store().list()).map(publicToken) };
    },
  );

  app.post(
    '/api/admin/service-tokens',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a service token',
        description:
          'Administrators only. Body `{name (1..200, unique among live tokens), role? (admin|user, default user), groups?: string[], ' +
          'datasources?: string[] (allowlist of datasource ids; absent: every datasource the role may use), requireApproval?: boolean, ' +
          'trustedApprovals?: boolean}`. Answers 201 `{token, secret}`: the secret (`pst_…`) is shown this once; only its hash is kept. ' +
          '400 malformed, 409 name taken, 503 without server storage. Audited `service_token`.',
        body: TokenBody,
        response: { 201: ServiceTokenCreated, ...ERRORS },
      },
      ...checkedByHandler,
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const input = parseTokenBody(request.body);
      const repo = store();
      const live = await repo.list();
      if (live.some((t) => t.name.toLowerCase() === input.name.toLowerCase())) {
        throw new HttpError(409, `A live service token is already named "${input.name}"`, 'CONFLICT');
      }
      const { token, secret } = await repo.create({ ...input, createdBy: admin.username });
      await deps.audit.record({
        type: 'service_token',
        actor: admin.username,
        result: 'success',
        action: 'create',
        tokenId: token.id,
        name: token.name,
        role: token.role,
        datasources: token.datasources,
        requireApproval: token.requireApproval,
        trustedApprovals: token.trustedApprovals,
      });
      return reply.code(201).send({ token: publicToken(token), secret });
    },
  );

  app.delete(
    '/api/admin/service-tokens/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke a service token',
        description:
          'Administrators only. Answers `{success: true}`; the token stops working at once. 404 unknown or already revoked. Audited `service_token`.',
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
        response: { 200: Success, ...ERRORS },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const { id } = request.params as { id: string };
      const repo = store();
      const token = await repo.get(id);
      if (!token || !(await repo.revoke(id))) throw notFound('Unknown service token');
      await deps.audit.record({
        type: 'service_token',
        actor: admin.username,
        result: 'success',
        action: 'revoke',
        tokenId: id,
        name: token.name,
      });
      return { success: true };
    },
  );
}
