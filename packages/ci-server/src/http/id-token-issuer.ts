// The control plane's OIDC issuer surface for job tokens (gocdnext's `id_tokens`, docs/ci-gocdnext.md):
// the discovery document and JWKS, unauthenticated because the cloud verifying a token fetches them (they
// hold public key material only), and the admin routes listing and rotating the signing keys.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { IdTokenIssuer } from '../id-tokens/issuer.js';

/** Verifiers may cache the keys this long; an emergency rotation takes effect within it. */
const CACHE_CONTROL = 'public, max-age=300';

const KeyInfo = Type.Object({
  kid: Type.String(),
  alg: Type.String(),
  created_at: Type.String(),
  retired_at: Type.Union([Type.String(), Type.Null()]),
  active: Type.Boolean({ description: 'signs new tokens' }),
  published: Type.Boolean({ description: 'listed in the JWKS (its tokens still verify)' }),
});

export function registerIdTokenRoutes(root: FastifyInstance, issuer: IdTokenIssuer): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/.well-known/openid-configuration', {
    config: { access: 'public' },
    schema: {
      summary: "OIDC discovery document of the jobs' id_tokens issuer",
      response: { 200: Type.Object({}, { additionalProperties: true }) },
    },
    handler: async (_request, reply) => reply.header('cache-control', CACHE_CONTROL).send(issuer.discovery()),
  });

  app.get('/.well-known/jwks.json', {
    config: { access: 'public' },
    schema: {
      summary: 'Public keys that verify job id_tokens (RS256)',
      response: {
        200: Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) }),
      },
    },
    handler: async (_request, reply) =>
      reply.header('cache-control', CACHE_CONTROL).send(await issuer.jwks()),
  });

  app.get('/api/v1/admin/oidc/keys', {
    config: { access: 'admin' },
    schema: {
      summary: 'Signing keys of job id_tokens (lifecycle only, never key material)',
      response: { 200: Type.Object({ keys: Type.Array(KeyInfo) }) },
    },
    handler: async () => ({ keys: await issuer.keys() }),
  });

  app.post('/api/v1/admin/oidc/keys/rotate', {
    config: { access: 'admin' },
    schema: {
      summary: 'Rotate the id_tokens signing key',
      description:
        '`graceful` (default): the old key stays in the JWKS until the tokens it signed have expired (1 h). ' +
        '`emergency`: older keys leave the JWKS at once and their tokens stop verifying.',
      body: Type.Optional(
        Type.Object(
          { mode: Type.Optional(Type.Union([Type.Literal('graceful'), Type.Literal('emergency')])) },
          { additionalProperties: false },
        ),
      ),
      response: { 200: KeyInfo },
    },
    handler: async (request) => {
      const mode = request.body?.mode ?? 'graceful';
      const key = await issuer.rotate(mode);
      request.auditNote = { target: `oidc_key:${key.kid}`, details: { mode } };
      return key;
    },
  });
}
