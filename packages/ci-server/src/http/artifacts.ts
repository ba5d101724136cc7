// Artifact routes: the run's list (with short-lived signed download links on request) and the download
// itself, which needs no credentials but a valid, unexpired signature — so a link can be opened by a
// browser, curl or another tool. A link whose id, expiry or signature was changed, or that expired, is 403.
import { basename } from 'node:path';
import { forbidden, notFound } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DOWNLOAD_URL_LIFETIME_S } from '../artifacts/signing.js';
import type { ExecutionData } from '../services/execution-data.js';
import type { StoreDb } from '../store/database.js';
import { runStatusOf } from '../store/lookups.js';
import type { Api } from './context.js';
import { errors, IdParams, Uuid } from './schemas.js';

export interface ArtifactRoutesOptions {
  db: StoreDb;
  data: ExecutionData;
  /**
   * Address clients reach the server at, for absolute download links. Without it the link is built from
   * the request's own address (protocol and Host header).
   */
  publicUrl?: string;
}

export const Artifact = Type.Object({
  id: Uuid,
  job_run_id: Uuid,
  job_name: Type.String({ description: 'the job run name, with its matrix values' }),
  path: Type.String({ description: 'path of the file relative to the checkout' }),
  size_bytes: Type.Integer({ minimum: 0 }),
  status: Type.String({ description: '`ready` once stored and verified' }),
  content_sha256: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'hex SHA-256' }),
  download_url: Type.Optional(
    Type.String({ description: 'signed link valid for about 5 minutes (with `download=true`)' }),
  ),
  created_at: Type.String({ format: 'date-time' }),
});

export function registerArtifactRoutes(api: Api, options: ArtifactRoutesOptions): void {
  const { db, data } = options;
  const origin = (request: FastifyRequest) =>
    options.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;

  api.get('/api/v1/runs/:id/artifacts', {
    config: { access: 'viewer' },
    schema: {
      tags: ['artifacts'],
      summary: "A run's artifacts",
      description:
        'With `download=true` each artifact gets `download_url`, an absolute link valid for about 5 minutes ' +
        "that needs no credentials: the server's own HMAC-signed route with the filesystem backend, a " +
        'presigned GET of the object with the S3 backend.',
      params: IdParams,
      querystring: Type.Object(
        { download: Type.Boolean({ default: false, description: 'add signed download links' }) },
        { additionalProperties: false },
      ),
      response: { 200: Type.Object({ artifacts: Type.Array(Artifact) }), ...errors(400, 404) },
    },
    handler: async (request) => {
      const runId = request.params.id.toLowerCase();
      if (!(await runStatusOf(db, runId))) throw notFound(`run ${runId} does not exist`);
      const list = await data.artifacts.listRunArtifacts(runId);
      const base = origin(request);
      const now = Date.now();
      const link = async (id: string) =>
        // On S3 the link is a presigned GET of the object itself; on a folder, the server's own signed route.
        (await data.artifacts.presign(id, DOWNLOAD_URL_LIFETIME_S)) ?? `${base}${data.signer.path(id, now)}`;
      return {
        artifacts: await Promise.all(
          list.map(async ({ run_id: _run, ...a }) =>
            request.query.download && a.status === 'ready' ? { ...a, download_url: await link(a.id) } : a,
          ),
        ),
      };
    },
  });

  api.get('/api/v1/artifacts/:id/download', {
    config: { access: 'public' },
    schema: {
      tags: ['artifacts'],
      summary: 'Download an artifact through a signed link',
      description:
        'The link comes from `GET /api/v1/runs/{id}/artifacts?download=true`. No credentials are needed; a ' +
        'changed or expired signature is 403. The body is the exact bytes uploaded; `X-Content-SHA256` ' +
        'carries their hex SHA-256.',
      params: IdParams,
      querystring: Type.Object(
        {
          expires: Type.Integer({ minimum: 0, description: 'unix seconds' }),
          signature: Type.String({ maxLength: 128, description: 'hex HMAC-SHA256' }),
        },
        { additionalProperties: false },
      ),
      response: {
        200: {
          description: 'the artifact bytes',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        ...errors(400, 403, 404),
      },
    },
    handler: async (request, reply) => {
      const id = request.params.id.toLowerCase();
      const check = data.signer.verify(id, request.query.expires, request.query.signature);
      if (check === 'expired') throw forbidden('this download link expired; ask for a new one');
      if (check !== 'ok') throw forbidden('this download link is not valid');
      const found = await data.artifacts.open(id);
      if (!found) throw notFound(`artifact ${id} does not exist`);
      const name = basename(found.artifact.path) || 'artifact';
      const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return (
        reply
          .header('content-type', 'application/octet-stream')
          .header('content-length', String(found.size))
          .header(
            'content-disposition',
            `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
          )
          .header('x-content-sha256', found.artifact.content_sha256 ?? '')
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          // A stream is sent as is (the 200 schema only describes it for the OpenAPI document).
          .send(found.stream() as unknown as string)
      );
    },
  });
}
