// Inbound webhooks: POST /api/webhooks/github, /gitlab and /bitbucket (public; verified by the host's
// signature instead). The routes live in their own encapsulated plugin whose only body parser keeps the raw
// bytes, because the HMAC covers exactly what was sent; bodies over WEBHOOK_BODY_LIMIT are refused with 413
// (and recorded) without being buffered.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { HOSTS, SCM_HOSTS } from '../scm/index.js';
import type { Triggers } from '../triggers/index.js';
import { refusal, WEBHOOK_BODY_LIMIT } from '../triggers/webhooks.js';
import { errors, Uuid } from './schemas.js';

interface RawBody {
  raw: Buffer | null;
  bytes: number;
}

/** Past this many bytes an oversized body is not even drained: the connection is cut. */
const DRAIN_LIMIT = 32 * WEBHOOK_BODY_LIMIT;

function readCapped(
  request: FastifyRequest,
  payload: NodeJS.ReadableStream & { destroy?: (err?: Error) => void },
  done: (err: Error | null, body?: RawBody) => void,
): void {
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > WEBHOOK_BODY_LIMIT) {
    // Known to be too large: answer now; Node discards the rest of the body.
    payload.resume();
    done(null, { raw: null, bytes: declared });
    return;
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  let over = false;
  payload.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DRAIN_LIMIT) {
      payload.destroy?.(new Error('webhook body far over the limit'));
      return;
    }
    if (bytes > WEBHOOK_BODY_LIMIT) {
      over = true;
      chunks.length = 0;
    } else chunks.push(chunk);
  });
  payload.on('end', () => done(null, { raw: over ? null : Buffer.concat(chunks), bytes }));
  payload.on('error', (err: Error) => done(Object.assign(err, { statusCode: 413 })));
}

const DESCRIPTIONS: Record<string, string> = {
  github:
    'GitHub `push` (branches; tags as `refs/tags/…`), `pull_request` (opened, reopened, synchronize) and `ping`. ' +
    'Signed with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; delivery id `X-GitHub-Delivery`.',
  gitlab:
    'GitLab `Push Hook`, `Tag Push Hook` and `Merge Request Hook` (open, reopen, update with new commits). ' +
    'Verified by `X-Gitlab-Token` (compared in constant time); delivery id `X-Gitlab-Event-UUID`.',
  bitbucket:
    'Bitbucket Cloud `repo:push` (every ref change of the push) and `pullrequest:created` / `pullrequest:updated`. ' +
    'Signed with `X-Hub-Signature: sha256=<hex>`; delivery id `X-Request-UUID`.',
};

const COMMON =
  ' The secret is the project secret `WEBHOOK_SECRET` of each project whose git materials name the repository ' +
  '(any URL spelling), else the global secret (CI_CONFIG `webhooks.<host>.secret`, else `CI_WEBHOOK_SECRET`). ' +
  'One run (cause `webhook`) starts in every pipeline of a verified project whose material watches the branch ' +
  '(the target branch for pull requests; any branch for tags) and whose `on` admits the event, at the pushed ' +
  'revision. `[skip ci]`, `[ci skip]` or `[no ci]` in the head commit message skips a push. A redelivered ' +
  'delivery id, or a revision a pipeline already ran for, starts nothing. 401: missing or wrong signature, or a ' +
  'repository no project watches while no global secret is set; 400: no event header or an unreadable body; ' +
  `413: body over ${WEBHOOK_BODY_LIMIT} bytes. Every delivery is recorded (GET /api/v1/admin/webhooks).`;

export async function registerWebhookRoutes(app: FastifyInstance, triggers: Triggers): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request, payload, done) => readCapped(request, payload, done));
    for (const host of SCM_HOSTS) {
      scope.post(`/api/webhooks/${host}`, {
        config: { access: 'public' },
        schema: {
          tags: ['webhooks'],
          summary: `Receive a ${HOSTS[host].display} webhook delivery`,
          description: DESCRIPTIONS[host] + COMMON,
          response: {
            200: Type.Object(
              { runs: Type.Array(Uuid, { description: 'runs this delivery started' }) },
              { description: 'verified; runs started (possibly none: unwatched branch, duplicate, skip)' },
            ),
            ...errors(400, 401, 413),
          },
        },
        handler: async (request) => {
          const body = request.body as RawBody | undefined;
          const answer = await triggers.webhooks.handle({
            host,
            headers: request.headers,
            raw: body ? body.raw : Buffer.alloc(0),
            bytes: body?.bytes ?? 0,
          });
          request.auditNote = {
            target: `webhook_delivery:${answer.deliveryRecordId}`,
            details: { scm: host, runs: answer.runs.length },
          };
          if (answer.status >= 400) throw refusal(answer);
          return { runs: answer.runs };
        },
      });
    }
  });
}
