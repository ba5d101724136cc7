// The request-body schema pieces every /api/db route shares: the connection descriptor (or a managed
// datasource's id) that says where a statement or operation runs. One definition, so the OpenAPI description
// documents the descriptor the same way on every route and route files need not import each other for it.

import type { TSchema } from 'typebox';
import { errorResponses } from './response-schemas.js';

export const connectionSchema = {
  type: 'object',
  description:
    'Connection descriptor (database-portal.md). A `connection.id` naming a managed datasource runs with the server definition. ' +
    '`ssl`: true or {mode: disable|require|verify-ca|verify-full, ca?, cert?, key?, servername?}. ' +
    '`sshTunnel`: {host, port?, username, password?, privateKey?, passphrase?, hostKeySha256?}; `sshProfile`: a bastion name from PORTAL_SSH_PROFILES.',
  additionalProperties: true,
};

/** Errors every /api/db route may answer: malformed input, no session, policy, unknown datasource, engine down. */
export const DB_ERRORS = errorResponses(400, 401, 403, 404, 408, 413, 429, 503);

/** A route body of `{connection | connectionId, …extra}` under the `database` tag, answering `answer`. */
export const connectionBody = (
  description: string,
  answer: TSchema,
  extra: Record<string, unknown> = {},
  required: string[] = [],
) => ({
  tags: ['database'],
  description,
  response: { 200: answer, ...DB_ERRORS },
  body: {
    type: 'object',
    properties: {
      connection: connectionSchema,
      connectionId: { type: 'string' },
      ...extra,
    },
    required,
    additionalProperties: true,
  },
});
