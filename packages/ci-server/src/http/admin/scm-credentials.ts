// Admin: SCM credentials (a username and a token or password for the repositories under a URL prefix),
// sealed at rest with CI_SECRET_KEY and never returned. Polling, run-all and checkouts of private
// repositories use the longest matching prefix.
import { Type } from 'typebox';
import type { Triggers } from '../../triggers/index.js';
import type { Api } from '../context.js';
import { errors, IdParams, NoContent, Uuid } from '../schemas.js';

const Credential = Type.Object({
  id: Uuid,
  url: Type.String({ description: 'the URL as given' }),
  prefix: Type.String({ description: 'normalised host[/path] it covers' }),
  username: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  has_secret: Type.Boolean({ description: 'always true; the secret itself is never returned' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export function registerAdminScmCredentialRoutes(api: Api, triggers: Triggers): void {
  api.get('/api/v1/admin/scm-credentials', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'SCM credentials (without their secrets)',
      response: { 200: Type.Object({ credentials: Type.Array(Credential) }) },
    },
    handler: async () => ({ credentials: await triggers.credentials.list() }),
  });

  api.post('/api/v1/admin/scm-credentials', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Store a credential for the repositories under a URL',
      description:
        '`url`: an http(s) address of a host, group or repository (`https://git.example.com/org`), without ' +
        'credentials in it; the longest prefix matching a repository wins. `username` defaults to ' +
        '`x-access-token` (GitHub tokens; GitLab and Bitbucket want `oauth2` / `x-token-auth` or the account ' +
        'name). `secret`: the token or password, at most 16 KiB. The same URL prefix again replaces the ' +
        'credential (200); a new one is 201.',
      body: Type.Object({
        url: Type.String({ minLength: 1, maxLength: 2000 }),
        username: Type.Optional(Type.String({ maxLength: 200 })),
        secret: Type.String({ minLength: 1 }),
        description: Type.Optional(Type.String({ maxLength: 500 })),
      }),
      response: { 200: Credential, 201: Credential, ...errors(400) },
    },
    handler: async (request, reply) => {
      const { created, credential } = await triggers.credentials.put(request.body);
      request.auditNote = {
        target: `scm_credential:${credential.id}`,
        details: { prefix: credential.prefix },
      };
      return reply.code(created ? 201 : 200).send(credential);
    },
  });

  api.delete('/api/v1/admin/scm-credentials/:id', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Remove an SCM credential',
      params: IdParams,
      response: { 204: NoContent, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      await triggers.credentials.delete(request.params.id);
      request.auditNote = { target: `scm_credential:${request.params.id}` };
      return reply.code(204).send();
    },
  });
}
