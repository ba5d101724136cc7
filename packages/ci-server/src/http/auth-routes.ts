// Sign-in routes outside /api/v1 (all public): the provider list, local login with rate limiting, logout,
// and the OIDC redirect and callback. Sessions are set as the `svc_session` cookie.
import { badRequest, HttpError, notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../auth/context.js';
import {
  appendSetCookie,
  LOGIN_COOKIE,
  readCookie,
  requestOrigin,
  SESSION_COOKIE,
  sameOrigin,
  serializeCookie,
} from '../auth/cookies.js';
import { finishLogin, LOGIN_TTL_MS, safeTarget, startLogin } from '../auth/oidc/flow.js';
import { MAX_PASSWORD_LENGTH, verifyAgainstDummy, verifyPassword } from '../auth/passwords.js';
import { ABSOLUTE_LIFETIME_MS } from '../auth/sessions.js';
import { UserSchema, userView } from '../auth/views.js';
import { findUserByUsername } from '../store/auth-users.js';

const ErrorSchema = Type.Object({ error: Type.String() });

/** A browser page of another site must not sign people in or out (login CSRF). Scripts send no Origin. */
function refuseForeignOrigin(ctx: AuthContext, request: FastifyRequest): void {
  if (requestOrigin(request) !== undefined && !sameOrigin(request, ctx.publicOrigin))
    throw new HttpError(403, 'Cross-origin request refused');
}

async function setSession(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
): Promise<void> {
  // A session the browser already had is ended rather than kept beside the new one (session fixation).
  const previous = readCookie(request, SESSION_COOKIE);
  if (previous) await ctx.sessions.destroy(previous);
  const value = await ctx.sessions.create(userId);
  appendSetCookie(
    reply,
    serializeCookie(SESSION_COOKIE, value, ctx.cookieFlags, { maxAgeSeconds: ABSOLUTE_LIFETIME_MS / 1000 }),
  );
}

export function registerAuthRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/auth/providers', {
    config: { access: 'public' },
    schema: {
      response: {
        200: Type.Object({
          providers: Type.Array(Type.Object({ name: Type.String(), display: Type.String() })),
        }),
      },
    },
    handler: async () => {
      await ctx.ready();
      const providers = (await ctx.registry.list()).map((p) => ({ name: p.name, display: p.display }));
      if (ctx.settings.localAccounts) providers.unshift({ name: 'local', display: 'Username and password' });
      return { providers };
    },
  });

  app.post('/auth/login/local', {
    config: { access: 'public' },
    schema: {
      description:
        'Signs in with a local account and sets the `svc_session` cookie (HttpOnly, Path=/, SameSite=Lax, Secure ' +
        'behind https; ends after 12 h idle or 7 days). Answers the User. 401 for a wrong username or password; ' +
        '429 with Retry-After after 10 failures per username or 50 per client address within 15 minutes; 403 ' +
        'when sent by a page of another origin; 400 when local accounts are disabled.',
      body: Type.Object({
        username: Type.String({ minLength: 1, maxLength: 200 }),
        password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
      }),
      response: { 200: UserSchema, '4xx': ErrorSchema },
    },
    handler: async (request, reply) => {
      if (!ctx.settings.localAccounts)
        throw badRequest('Local accounts are disabled on this server (CI_LOCAL_ACCOUNTS=false)');
      refuseForeignOrigin(ctx, request);
      await ctx.ready();
      const { username, password } = request.body;
      request.auditNote = { action: 'auth.login', actor: 'anonymous', target: `user:${username}` };
      const wait = ctx.limiter.retryAfter(username, request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `Too many failed sign-in attempts; try again in ${wait} seconds`);
      }
      const user = await findUserByUsername(ctx.db, username);
      const ok = user?.password_hash
        ? await verifyPassword(password, user.password_hash)
        : await verifyAgainstDummy(password);
      if (!user || !ok) {
        ctx.limiter.recordFailure(username, request.ip);
        throw new HttpError(401, 'Invalid username or password');
      }
      ctx.limiter.recordSuccess(username);
      await setSession(ctx, request, reply, user.id);
      request.auditNote = { action: 'auth.login', actor: user.username, target: `user:${user.id}` };
      return userView(user);
    },
  });

  app.post('/auth/logout', {
    config: { access: 'public' },
    schema: {
      description: 'Ends the session (server side) and drops the cookie; 204 also without a session.',
    },
    handler: async (request, reply) => {
      const cookie = readCookie(request, SESSION_COOKIE);
      request.auditNote = { action: 'auth.logout' };
      if (cookie) {
        refuseForeignOrigin(ctx, request);
        await ctx.ready();
        const principal = await ctx.identify(request);
        if (principal) request.auditNote = { action: 'auth.logout', actor: principal.username };
        await ctx.sessions.destroy(cookie);
      }
      appendSetCookie(reply, serializeCookie(SESSION_COOKIE, '', ctx.cookieFlags, { maxAgeSeconds: 0 }));
      return reply.code(204).send();
    },
  });

  app.get('/auth/login/:provider', {
    config: { access: 'public' },
    schema: {
      description:
        'Starts sign-in: 302 to the identity provider (authorization code with PKCE S256, state and nonce kept in ' +
        'a sealed 10-minute cookie). `oidc` means the first provider; `local` redirects to the web login form. ' +
        '`next` (a path on this server) is where the callback finally redirects.',
      params: Type.Object({ provider: Type.String({ minLength: 1, maxLength: 64 }) }),
      querystring: Type.Object({
        next: Type.Optional(Type.String({ maxLength: 2000 })),
        return_to: Type.Optional(Type.String({ maxLength: 2000 })),
      }),
    },
    handler: async (request, reply) => {
      await ctx.ready();
      const target = safeTarget(request.query.next ?? request.query.return_to);
      const { provider } = request.params;
      if (provider === 'local') {
        // Local sign-in is a form in the web UI that posts to /auth/login/local.
        if (!ctx.settings.localAccounts) throw notFound('Local accounts are disabled on this server');
        return reply.redirect(`/login?next=${encodeURIComponent(target)}`, 302);
      }
      const list = await ctx.registry.list();
      const entry = provider === 'oidc' ? list[0] : list.find((p) => p.name === provider);
      if (!entry) throw notFound(`No identity provider named "${provider}"`);
      const { url, cookie } = await startLogin(ctx.flow, entry, target);
      appendSetCookie(
        reply,
        serializeCookie(LOGIN_COOKIE, cookie, ctx.cookieFlags, {
          maxAgeSeconds: LOGIN_TTL_MS / 1000,
          path: '/auth',
        }),
      );
      return reply.redirect(url, 302);
    },
  });

  const CallbackValue = Type.String({ maxLength: 8000 });
  app.get('/auth/callback/:provider', {
    config: { access: 'public' },
    schema: {
      description:
        'Completes sign-in: 302 to the original target with the session cookie. The first login creates the ' +
        'user; the role comes from the provider’s role claim and map (re-evaluated at every login when a claim ' +
        'is configured). 400 for a missing, tampered or expired sign-in state; 401 when the provider refuses; ' +
        '403 when no role applies and the default role is `none`; 503 when the provider is unreachable.',
      params: Type.Object({ provider: Type.String({ minLength: 1, maxLength: 64 }) }),
      // The parameters OAuth 2.0 / OIDC define for a redirect back (RFC 6749 §4.1.2, RFC 9207 `iss`); a
      // provider may add its own, so others are accepted too. An object with named properties, not a
      // `Type.Record`: @fastify/swagger turns a record into bogus parameters named `type` and
      // `additionalProperties`, which fails OpenAPI validation.
      querystring: Type.Object(
        {
          code: Type.Optional(CallbackValue),
          state: Type.Optional(CallbackValue),
          iss: Type.Optional(CallbackValue),
          session_state: Type.Optional(CallbackValue),
          error: Type.Optional(CallbackValue),
          error_description: Type.Optional(CallbackValue),
          error_uri: Type.Optional(CallbackValue),
        },
        { additionalProperties: Type.String({ maxLength: 8000 }) },
      ),
    },
    handler: async (request, reply) => {
      await ctx.ready();
      const entry = await ctx.registry.get(request.params.provider);
      if (!entry) throw notFound(`No identity provider named "${request.params.provider}"`);
      // The login cookie is single-use whatever the outcome.
      appendSetCookie(
        reply,
        serializeCookie(LOGIN_COOKIE, '', ctx.cookieFlags, { maxAgeSeconds: 0, path: '/auth' }),
      );
      const event = { actor: 'anonymous', action: 'auth.oidc_login', target: `provider:${entry.name}` };
      try {
        const { user, target } = await finishLogin(
          ctx.flow,
          entry,
          request.query,
          readCookie(request, LOGIN_COOKIE),
        );
        await setSession(ctx, request, reply, user.id);
        ctx.audit.record({
          ...event,
          actor: user.username,
          status: 302,
          details: { outcome: 'success', provider: entry.name, user_id: user.id, role: user.role },
        });
        return reply.redirect(target, 302);
      } catch (err) {
        const status = err instanceof HttpError ? err.statusCode : 500;
        ctx.audit.record({
          ...event,
          status,
          details: { outcome: 'failure', provider: entry.name, error: (err as Error).message.slice(0, 300) },
        });
        throw err;
      }
    },
  });
}
