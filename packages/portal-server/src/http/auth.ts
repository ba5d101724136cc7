// Sign-in routes under /api/auth (spec "Authentication and session"): local login with the optional second
// factor, logout, the current session, and the OIDC login and callback. `registerPortalAuth` wires the whole
// authentication layer into the app: cookies, deployment-role filter, guard, these routes and the pages.

import { errorBody } from '@app/kit';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { matchAccount, normalizeEmail } from '../auth/accounts.js';
import { createPortalAuth } from '../auth/index.js';
import { OIDC_STATE_COOKIE, OIDC_STATE_TTL_SECONDS, OidcFailure } from '../auth/oidc.js';
import { decideSecureCookie, SESSION_COOKIE, type Session, sessionCookieOptions } from '../auth/session.js';
import type { AuthSecrets } from '../bootstrap.js';
import type { PortalSettings } from '../config.js';
import { registerAuthPages } from './auth-pages.js';
import { readSession, registerGuard } from './guard.js';
import { checkedByHandler } from './request-input.js';
import { AuthProviders, LoginAnswer, LogoutAnswer, MeAnswer, Redirect } from './response-schemas.js';
import { type DeploymentRole, registerRoleFilter } from './roles.js';

const LOGIN_BODY_LIMIT = 16 * 1024;
const OIDC_COOKIE_PATH = '/api/auth/oidc';

export const LOGIN_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  codeRequired: 'Two-factor code required',
  invalidCode: 'Invalid or already used two-factor code',
  notJson: 'Request body must be a JSON object',
  missingFields: 'email and password are required strings',
} as const;

/** This deployment's origin: `PUBLIC_URL` when set, else the scheme and Host of the request. */
export function publicOrigin(request: FastifyRequest, settings: PortalSettings): string {
  if (settings.publicUrl) return new URL(settings.publicUrl).origin;
  return `${request.protocol}://${request.host}`;
}

type LoginBody = { email: string; password: string; code?: string };

/** The documented login body; `parseLoginBody` checks it (the route reads text, see `loginRouteSchema`). */
const LoginRequest = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 1024 }),
  code: Type.Optional(
    Type.Union([Type.String(), Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'The second-factor code when the account has one',
    }),
  ),
});

function parseLoginBody(raw: unknown): LoginBody | { problem: string } {
  if (typeof raw !== 'string' || raw.trim() === '') return { problem: LOGIN_MESSAGES.notJson };
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    return { problem: `${LOGIN_MESSAGES.notJson}; the body is not valid JSON` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { problem: LOGIN_MESSAGES.notJson };
  const { email, password, code } = doc as Record<string, unknown>;
  if (
    typeof email !== 'string' ||
    typeof password !== 'string' ||
    email.length > 320 ||
    password.length > 1024
  )
    return { problem: LOGIN_MESSAGES.missingFields };
  let codeText: string | undefined;
  if (typeof code === 'string') codeText = code.replace(/\s/g, '');
  else if (typeof code === 'number' && Number.isInteger(code) && code >= 0)
    codeText = String(code).padStart(6, '0');
  else if (code !== undefined && code !== null) return { problem: 'code must be a string of digits' };
  return { email, password, code: codeText || undefined };
}

/** Records a sign-in attempt (spec: sign-ins are audit events); a failing audit sink never blocks sign-in. */
async function auditSignIn(
  request: FastifyRequest,
  fields: {
    actor: string;
    result: 'success' | 'failure';
    method: 'local' | 'oidc';
    role?: string;
    reason?: string;
  },
): Promise<void> {
  const record = request.server.portalAuth.recordSignIn;
  if (!record) return;
  try {
    await record({ type: 'sign_in', ...fields, actor: fields.actor.slice(0, 320), address: request.ip });
  } catch (err) {
    request.log.error({ err: (err as Error).message }, 'sign-in audit event not recorded');
  }
}

function rateLimited(reply: FastifyReply, retryAfterSeconds: number) {
  const message = `Too many login attempts; try again in ${retryAfterSeconds} seconds`;
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .send(errorBody('portal', 429, message, 'RATE_LIMITED', { success: false, message }));
}

/** Login lives in its own scope: it reads any body as text so a non-JSON body is its own 400 reply. */
async function loginScope(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: LOGIN_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((err, request, reply) => {
    const e = err as { statusCode?: number; message: string; code?: string };
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'login failed');
    const message =
      e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'Request body is too large'
        : status === 500
          ? 'Internal server error'
          : e.message;
    return reply.code(status).send({ success: false, message });
  });

  app.post(
    '/api/auth/login',
    {
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags: ['auth'],
        description:
          'Local sign-in; sets the `auth-token` cookie. Refusals answer `{success: false, message}` (400 malformed body, ' +
          '401 wrong credentials or code with `totpRequired`, 429 rate limited with `retry-after`).',
        body: LoginRequest,
        response: { 200: LoginAnswer, 400: LoginAnswer, 401: LoginAnswer, 429: LoginAnswer },
      },
      // The body is read as text and checked by `parseLoginBody`, so a non-JSON or malformed body is the
      // spec's own `{success: false, message}` 400 rather than a validator error.
      ...checkedByHandler,
    },
    async (request, reply) => {
      const auth = app.portalAuth;
      const body = parseLoginBody(request.body);
      if ('problem' in body) return reply.code(400).send({ success: false, message: body.problem });

      const attempt = { actor: normalizeEmail(body.email), method: 'local' as const };
      const addressKey = request.ip;
      const emailKey = `${request.ip}|${normalizeEmail(body.email)}`;
      for (const [limiter, key] of [
        [auth.limits.loginPerAddress, addressKey],
        [auth.limits.loginPerEmail, emailKey],
      ] as const) {
        const d = limiter.take(key);
        if (!d.allowed) {
          await auditSignIn(request, { ...attempt, result: 'failure', reason: 'rate_limited' });
          return rateLimited(reply, d.retryAfterSeconds);
        }
      }

      const account = matchAccount(auth.accounts, body.email, body.password);
      if (!account) {
        await auditSignIn(request, { ...attempt, result: 'failure', reason: 'invalid_credentials' });
        return reply.code(401).send({ success: false, message: LOGIN_MESSAGES.invalidCredentials });
      }
      if (account.totpSecret) {
        if (!body.code) {
          await auditSignIn(request, { ...attempt, result: 'failure', reason: 'code_required' });
          return reply
            .code(401)
            .send({ success: false, message: LOGIN_MESSAGES.codeRequired, totpRequired: true });
        }
        if ((await auth.totp.check(account.id, account.totpSecret, body.code)) !== 'accepted') {
          await auditSignIn(request, { ...attempt, result: 'failure', reason: 'invalid_code' });
          return reply
            .code(401)
            .send({ success: false, message: LOGIN_MESSAGES.invalidCode, totpRequired: true });
        }
      }
      // A successful sign-in does not eat into the person's budget.
      auth.limits.loginPerAddress.refund(addressKey);
      auth.limits.loginPerEmail.refund(emailKey);
      const token = await auth.sessions.issue({
        role: account.role,
        username: account.email,
        method: 'local',
      });
      reply.setCookie(
        SESSION_COOKIE,
        token,
        sessionCookieOptions(decideSecureCookie(auth.settings, request)),
      );
      request.log.info({ username: account.email, role: account.role }, 'signed in');
      await auditSignIn(request, {
        actor: account.email,
        result: 'success',
        method: 'local',
        role: account.role,
      });
      return { success: true, role: account.role };
    },
  );
}

async function sessionRoutes(app: FastifyInstance) {
  const auth = app.portalAuth;
  const { settings } = auth;
  // None of these routes reads a body: accept (and ignore) whatever a client sends, even an empty JSON one.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LOGIN_BODY_LIMIT }, (_req, _body, done) =>
    done(null, undefined),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        description: 'Ends the session (any body is ignored); `redirectUrl` is the OIDC end-session address.',
        response: { 200: LogoutAnswer },
      },
    },
    async (request, reply) => {
      const session: Session | null = await readSession(request);
      if (session) await auth.sessions.revoke(session);
      const { maxAge: _unused, ...attrs } = sessionCookieOptions(decideSecureCookie(settings, request));
      reply.clearCookie(SESSION_COOKIE, attrs);
      const out: { success: true; redirectUrl?: string } = { success: true };
      if (auth.oidc) {
        try {
          out.redirectUrl = await auth.oidc.endSessionUrl(`${publicOrigin(request, settings)}/login`);
        } catch (err) {
          request.log.warn(
            { err: (err as Error).message },
            'OIDC end-session URL unavailable; local logout only',
          );
        }
      }
      return out;
    },
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        tags: ['auth'],
        description:
          'The session: `{authenticated: true, user: {role, username}}`, or 401 `{authenticated: false}`.',
        response: { 200: MeAnswer, 401: MeAnswer },
      },
    },
    async (request, reply) => {
      const session = await readSession(request);
      if (!session) return reply.code(401).send({ authenticated: false });
      return { authenticated: true, user: { role: session.role, username: session.username } };
    },
  );

  // Open (under /api/auth): tells the sign-in page whether to offer single sign-on. Local login is always
  // available (a break-glass path in OIDC mode too).
  const providersSchema = {
    tags: ['auth'],
    description: 'Whether the sign-in page offers single sign-on (local sign-in is always there).',
    response: { 200: AuthProviders },
  };
  app.get('/api/auth/providers', { schema: providersSchema }, async () => ({
    provider: settings.authProvider,
    local: true,
    oidc: settings.authProvider === 'oidc',
  }));

  const stateCookie = (request: FastifyRequest) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    path: OIDC_COOKIE_PATH,
    secure: decideSecureCookie(settings, request),
  });
  const fail = (reply: FastifyReply, code: string) =>
    reply.redirect(`/login?error=${encodeURIComponent(code)}`, 302);

  const redirects = (description: string) => ({
    schema: { tags: ['auth'], description, response: { 302: Redirect } },
  });
  app.get(
    '/api/auth/oidc/login',
    redirects('Starts OIDC sign-in: 302 to the provider, or to `/login?error=<code>`.'),
    async (request, reply) => {
      if (!auth.oidc) return fail(reply, 'oidc_not_enabled');
      try {
        const redirectUri = `${publicOrigin(request, settings)}/api/auth/oidc/callback`;
        const { url, stateCookie: value } = await auth.oidc.begin(redirectUri);
        reply.setCookie(OIDC_STATE_COOKIE, value, {
          ...stateCookie(request),
          maxAge: OIDC_STATE_TTL_SECONDS,
        });
        return reply.redirect(url, 302);
      } catch (err) {
        const code = err instanceof OidcFailure ? err.code : 'provider_unavailable';
        request.log.warn({ code, reason: (err as Error).message }, 'OIDC login could not start');
        return fail(reply, code);
      }
    },
  );

  app.get(
    '/api/auth/oidc/callback',
    {
      schema: {
        tags: ['auth'],
        description:
          "The provider's redirect back (`code`, `state`; read from the raw query): 302 to `/` or `/admin` signed in, or to `/login?error=<code>`.",
        querystring: Type.Object(
          { code: Type.Optional(Type.String()), state: Type.Optional(Type.String()) },
          { additionalProperties: true },
        ),
        response: { 302: Redirect },
      },
    },
    async (request, reply) => {
      // The state value is single-use: it goes whatever the outcome.
      reply.clearCookie(OIDC_STATE_COOKIE, stateCookie(request));
      if (!auth.oidc) return fail(reply, 'oidc_not_enabled');
      try {
        const q = request.url.indexOf('?');
        const identity = await auth.oidc.complete(
          q === -1 ? '' : request.url.slice(q + 1),
          request.cookies[OIDC_STATE_COOKIE],
        );
        const token = await auth.sessions.issue({
          role: identity.role,
          username: identity.username,
          method: 'oidc',
        });
        reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(decideSecureCookie(settings, request)));
        request.log.info({ username: identity.username, role: identity.role }, 'signed in with OIDC');
        await auditSignIn(request, {
          actor: identity.username,
          result: 'success',
          method: 'oidc',
          role: identity.role,
        });
        return reply.redirect(identity.role === 'admin' ? '/admin' : '/', 302);
      } catch (err) {
        const code = err instanceof OidcFailure ? err.code : 'token_exchange_failed';
        request.log.warn({ code, reason: (err as Error).message }, 'OIDC sign-in refused');
        // Nobody is identified yet when the provider's answer is refused.
        await auditSignIn(request, { actor: 'unknown', result: 'failure', method: 'oidc', reason: code });
        return fail(reply, code);
      }
    },
  );
}

/**
 * Wires authentication into the portal. Call right after `createApp`, before other routes, so the role
 * filter and the guard run ahead of every handler.
 */
export async function registerPortalAuth(
  app: FastifyInstance,
  settings: PortalSettings,
  secrets: AuthSecrets,
  options: { now?: () => number } = {},
): Promise<void> {
  app.decorate('portalAuth', createPortalAuth(settings, secrets, options));
  await app.register(cookie);
  registerRoleFilter(app, settings.role as DeploymentRole);
  registerGuard(app);
  await app.register(loginScope);
  await app.register(sessionRoutes);
  await app.register(registerAuthPages);
}
