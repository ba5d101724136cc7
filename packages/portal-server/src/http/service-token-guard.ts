// The admission of the service-token surfaces (the bot API under /api/v1 and the MCP endpoint): the request's
// `Authorization: Bearer pst_…` must name a live token (401 with `WWW-Authenticate` otherwise), then the
// token's name is counted against the per-token budget (PORTAL_RATE_DATABASE_PER_TOKEN; 429 with Retry-After
// beyond it).
// One place, so that a new token-authenticated route cannot admit a token without also limiting it.
import { errorBody, HttpError } from '@app/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceToken, ServiceTokenRepository } from '../storage/service-tokens.js';

/** Refresh `last_used_at` at most this often per token (one write per request would be wasteful). */
const TOUCH_EVERY_MS = 60_000;

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1];
}

/** The live token of the request's bearer secret; 401 (with `WWW-Authenticate`) otherwise. */
async function requireServiceToken(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: ServiceTokenRepository,
): Promise<ServiceToken> {
  const secret = bearer(request);
  const token = secret && secret.length <= 200 ? await tokens.findBySecret(secret) : undefined;
  if (!token) {
    reply.header('www-authenticate', 'Bearer realm="database-portal"');
    throw new HttpError(
      401,
      'A valid service token is required (Authorization: Bearer pst_…)',
      'UNAUTHORIZED',
    );
  }
  const last = token.last_used_at ? Date.parse(token.last_used_at) : 0;
  if (Date.now() - last > TOUCH_EVERY_MS) await tokens.touch(token.id).catch(() => undefined);
  return token;
}

/**
 * The request's live service token within its budget, or undefined once the 429 has been sent (the route
 * then returns the reply as it stands); a missing or unknown token throws the 401.
 */
export async function admitServiceToken(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: ServiceTokenRepository,
): Promise<ServiceToken | undefined> {
  const token = await requireServiceToken(request, reply, tokens);
  const decision = request.server.portalAuth.limits.serviceToken.take(`token:${token.name}`);
  if (decision.allowed) return token;
  reply
    .code(429)
    .header('retry-after', String(decision.retryAfterSeconds))
    .send(
      errorBody(
        'portal',
        429,
        `Too many requests for service token ${token.name}; try again in ${decision.retryAfterSeconds} seconds`,
        'RATE_LIMITED',
      ),
    );
  return undefined;
}
