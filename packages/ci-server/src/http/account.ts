// The caller's own account (any authenticated role): who am I, password change for local users,
// preferences, and personal API tokens. Service accounts can read themselves and their tokens, but their
// tokens are minted by an administrator.
import { badRequest, HttpError, hashToken, notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../auth/context.js';
import { readCookie, SESSION_COOKIE } from '../auth/cookies.js';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from '../auth/passwords.js';
import { issueToken } from '../auth/token-service.js';
import {
  IdParams,
  NewTokenSchema,
  parseExpiry,
  TokenSchema,
  TokenWithSecretSchema,
  UserSchema,
  userView,
} from '../auth/views.js';
import { findServiceAccount } from '../store/auth-service-accounts.js';
import { deleteUserSessions } from '../store/auth-sessions.js';
import { listTokens, revokeToken, type TokenOwner } from '../store/auth-tokens.js';
import { findUserById, getPreferences, putPreferences, updateUserPassword } from '../store/auth-users.js';
import type { Principal } from './access.js';

/** Preferences are a UI's free-form settings; bounded so they cannot grow without limit. */
const MAX_PREFERENCES_BYTES = 64 * 1024;
const ANONYMOUS_ID = '00000000-0000-0000-0000-000000000000';

function principalOf(request: FastifyRequest): Principal {
  // Always set on 'authenticated' routes: by the real authorizer, or by the open one (anonymous admin).
  return request.principal ?? { kind: 'anonymous', id: '', username: 'anonymous', role: 'admin' };
}

function ownerOf(p: Principal): TokenOwner | undefined {
  if (p.kind === 'anonymous') return undefined;
  return p.kind === 'service_account' ? { serviceAccountId: p.id } : { userId: p.id };
}

export function registerAccountRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/me', {
    config: { access: 'authenticated' },
    schema: { response: { 200: UserSchema } },
    handler: async (request) => {
      const p = principalOf(request);
      if (p.kind === 'anonymous') {
        // CI_AUTH_ENABLED=false: everyone is an anonymous administrator.
        return {
          id: ANONYMOUS_ID,
          username: p.username,
          email: null,
          role: p.role,
          created_at: new Date(0).toISOString(),
        };
      }
      if (p.kind === 'service_account') {
        const sa = await findServiceAccount(ctx.db, p.id);
        if (!sa) throw notFound('Service account not found');
        return { id: sa.id, username: sa.name, email: null, role: sa.role, created_at: sa.created_at };
      }
      const user = await findUserById(ctx.db, p.id);
      if (!user) throw notFound('User not found');
      return userView(user);
    },
  });

  app.post('/api/v1/me/password', {
    config: { access: 'authenticated' },
    schema: {
      description:
        'Changes the password of a local user. 400 when new_password is shorter than 12 characters or the ' +
        'account has no local password; 401 when current_password is wrong (rate limited like sign-in). Other ' +
        'sessions of the user end; API tokens stay valid.',
      body: Type.Object({
        current_password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
        new_password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
      }),
    },
    handler: async (request, reply) => {
      const p = principalOf(request);
      if (p.kind === 'anonymous' || p.kind === 'service_account')
        throw badRequest('Only local user accounts have a password');
      const user = await findUserById(ctx.db, p.id);
      if (!user) throw notFound('User not found');
      if (!user.password_hash)
        throw badRequest(`This account signs in through "${user.provider}" and has no password here`);
      const { current_password, new_password } = request.body;
      if (new_password.length < MIN_PASSWORD_LENGTH)
        throw badRequest(`new_password must be at least ${MIN_PASSWORD_LENGTH} characters`);
      // Re-authentication is rate limited like sign-in, so a stolen session cannot guess the password.
      const wait = ctx.limiter.retryAfter(user.username, request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `Too many failed attempts; try again in ${wait} seconds`);
      }
      if (!(await verifyPassword(current_password, user.password_hash))) {
        ctx.limiter.recordFailure(user.username, request.ip);
        // 401 as the spec lists: the caller failed to re-authenticate (the session itself stays valid).
        throw new HttpError(401, 'current_password is not correct');
      }
      await updateUserPassword(ctx.db, user.id, await hashPassword(new_password));
      // Other sign-ins end; the session making the change (if any) stays.
      const cookie = p.viaCookie ? readCookie(request, SESSION_COOKIE) : undefined;
      await deleteUserSessions(ctx.db, user.id, cookie ? hashToken(cookie) : undefined);
      return reply.code(204).send();
    },
  });

  app.get('/api/v1/account/preferences', {
    config: { access: 'authenticated' },
    schema: {
      response: {
        200: Type.Object({
          preferences: Type.Record(Type.String(), Type.Unknown()),
          updated_at: Type.Union([Type.Null(), Type.String()]),
        }),
      },
    },
    handler: async (request) => getPreferences(ctx.db, principalOf(request).id || 'anonymous'),
  });

  app.put('/api/v1/account/preferences', {
    config: { access: 'authenticated' },
    schema: { body: Type.Object({ preferences: Type.Record(Type.String(), Type.Unknown()) }) },
    handler: async (request, reply) => {
      const { preferences } = request.body;
      if (Buffer.byteLength(JSON.stringify(preferences)) > MAX_PREFERENCES_BYTES)
        throw badRequest(`preferences must be at most ${MAX_PREFERENCES_BYTES} bytes as JSON`);
      await putPreferences(ctx.db, principalOf(request).id || 'anonymous', preferences);
      return reply.code(204).send();
    },
  });

  app.get('/api/v1/account/api-tokens', {
    config: { access: 'authenticated' },
    schema: { response: { 200: Type.Object({ tokens: Type.Array(TokenSchema) }) } },
    handler: async (request) => {
      const owner = ownerOf(principalOf(request));
      return { tokens: owner ? await listTokens(ctx.db, owner) : [] };
    },
  });

  app.post('/api/v1/account/api-tokens', {
    config: { access: 'authenticated' },
    schema: {
      description:
        'Mints a personal API token (`ci_` + 32 random bytes, base64url). The secret is in this response only; ' +
        'the token acts with its owner’s current role. expires_at: RFC 3339 in the future, or null.',
      body: NewTokenSchema,
      response: { 201: TokenWithSecretSchema },
    },
    handler: async (request, reply) => {
      const p = principalOf(request);
      if (p.kind === 'anonymous')
        throw badRequest(
          'Authentication is disabled (CI_AUTH_ENABLED=false); there is no account to own a token',
        );
      if (p.kind === 'service_account')
        throw badRequest(
          'A service account cannot mint its own tokens; an administrator mints them at /api/v1/admin/service-accounts/{id}/tokens',
        );
      const expiresAt = parseExpiry(request.body.expires_at);
      const token = await issueToken(ctx.db, { userId: p.id }, request.body.name, expiresAt);
      request.auditNote = { target: `api_token:${token.id}`, details: { token_name: token.name } };
      return reply.code(201).send(token);
    },
  });

  app.delete('/api/v1/account/api-tokens/:id', {
    config: { access: 'authenticated' },
    schema: { params: IdParams },
    handler: async (request, reply) => {
      const owner = ownerOf(principalOf(request));
      const revoked =
        owner && (await revokeToken(ctx.db, owner, request.params.id, new Date().toISOString()));
      if (!revoked) throw notFound('No such API token');
      request.auditNote = { target: `api_token:${request.params.id}` };
      return reply.code(204).send();
    },
  });
}
