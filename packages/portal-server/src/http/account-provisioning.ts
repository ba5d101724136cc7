// Account provisioning routes (admin; database-portal.md "Admin"): POST /api/admin/datasources/{id}/account/plan
// previews the least-privilege accounts and their statements (passwords masked), POST …/account runs them.
// The work lives in src/provisioning/ (docs/portal-seed-and-accounts.md).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { toHttpError } from '../providers/errors.js';
import { parseAccountBody } from '../provisioning/request.js';
import type { AccountService } from '../provisioning/service.js';
import { requireAdmin } from './guard.js';
import { errorResponses } from './response-schemas.js';

export interface AccountRouteDeps {
  accounts: AccountService;
}

// The answer's fields as provisioning/types.ts keeps them; closed objects but the inventory, which stays open.
const str = Type.String();
const statementShape = Type.Object({
  shown: Type.String({ description: 'passwords replaced by ********' }),
  purpose: str,
  optional: Type.Optional(Type.Boolean({ description: 'a refusal does not stop the run' })),
  account: str,
  outcome: Type.Optional(Type.Union([Type.Literal('ran'), Type.Literal('refused'), Type.Literal('skipped')])),
  error: Type.Optional(str),
});

const answerShape = Type.Object({
  inventory: Type.Object(
    {
      engine: str,
      database: str,
      connectedAs: Type.String({ description: 'the account the statements run as' }),
      canCreateRoles: Type.Boolean(),
      schemas: Type.Array(Type.Object({ name: str, exists: Type.Boolean() })),
      existingAccounts: Type.Array(str, { description: 'planned accounts that exist (password reset)' }),
    },
    { additionalProperties: true },
  ),
  plan: Type.Object({
    roleName: str,
    agentRoleName: Type.Optional(str),
    statements: Type.Array(statementShape),
    blockers: Type.Array(str),
  }),
  destination: Type.Object({
    kind: Type.Union([Type.Literal('vault'), Type.Literal('none')]),
    path: Type.Optional(str),
    version: Type.Optional(Type.Integer()),
    reason: Type.Optional(str),
  }),
  completed: Type.Optional(Type.Boolean({ description: 'the run: every required statement ran' })),
  error: Type.Optional(str),
  code: Type.Optional(str),
});

const params = { type: 'object', properties: { id: { type: 'string', maxLength: 200 } }, required: ['id'] };
const bodyDoc =
  'Body `{profile (read|readwrite), schemas (1..100 names), agent (boolean), bootstrap?:{user, password}, vaultPath?}`.';

export function registerAccountProvisioningRoutes(app: FastifyInstance, deps: AccountRouteDeps): void {
  app.post(
    '/api/admin/datasources/:id/account/plan',
    {
      schema: {
        tags: ['admin'],
        summary: 'Plan least-privilege accounts',
        description: `Administrators only. ${bodyDoc} Answers \`{inventory, plan:{roleName, agentRoleName, statements:[{shown, purpose, optional?, account}], blockers}, destination}\` with passwords masked. 400 malformed, 403 non-admin or another engine, 404 unknown datasource.`,
        params,
        body: { type: 'object', additionalProperties: true },
        response: { 200: answerShape, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const { id } = request.params as { id: string };
      const body = parseAccountBody(request.body);
      // A connection or sign-in failure (bootstrap credentials included) is the portal's 503, not a 500.
      return deps.accounts.plan(id, body, admin.username).catch((err) => {
        throw toHttpError(err);
      });
    },
  );

  app.post(
    '/api/admin/datasources/:id/account',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create least-privilege accounts',
        description: `Administrators only. ${bodyDoc} Writes the generated passwords to the vault at vaultPath (never returned), then runs each statement: \`outcome\` ran, refused or skipped, and \`completed\`. 200 complete; 409 stopped at a refusal, a blocker, or no vault to write to; 502 the vault refused (nothing ran); 400 malformed, 403 non-admin or another engine, 404 unknown datasource. Audited \`account_provisioning\`.`,
        params,
        body: { type: 'object', additionalProperties: true },
        response: {
          200: answerShape,
          409: answerShape,
          ...errorResponses(400, 403, 404, 502),
        },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const { id } = request.params as { id: string };
      const input = parseAccountBody(request.body);
      const { status, body } = await deps.accounts.run(id, input, admin.username).catch((err) => {
        throw toHttpError(err);
      });
      return reply.code(status).send(body);
    },
  );
}
