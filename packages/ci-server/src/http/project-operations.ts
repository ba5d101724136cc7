// Project settings beyond triggers: the log-archive override (`null` inherits CI_CONFIG
// `retention.log_archive`), the notification config (validated and stored; notifications/ delivers it) and the
// project's cache entries (list, admin purge by id). Settings live in `project_settings` (migration 0007).
import { badRequest, notFound } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { BlobStorage } from '../blobs/blob-storage.js';
import { NOTIFICATION_EVENTS } from '../domain/notification-events.js';
import {
  decodeStoredPolicy,
  encodeStoredPolicy,
  type LogArchivePolicy,
  logArchiveView,
  parseLogArchive,
} from '../retention/retention-settings.js';
import { deleteCacheEntry, listCacheEntries } from '../store/cache-entries.js';
import type { StoreDb } from '../store/database.js';
import { projectIdOf } from '../store/lookups.js';
import { readProjectSetting, writeProjectSetting } from '../store/settings.js';
import { roleAtLeast } from './access.js';
import { LogArchiveSetting } from './admin/retention.js';
import type { Api } from './context.js';
import { errors, NoContent, SlugParams, Uuid } from './schemas.js';

export { NOTIFICATION_EVENTS };
export const MAX_CHANNELS = 20;

const Channel = Type.Object(
  {
    kind: Type.Enum(['webhook', 'email', 'chat']),
    target: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'webhook: an http(s) URL; email: an address; chat: an http(s) incoming-webhook URL or #channel',
    }),
    events: Type.Array(Type.Enum([...NOTIFICATION_EVENTS]), {
      minItems: 1,
      maxItems: NOTIFICATION_EVENTS.length,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);
const NotificationBody = Type.Object(
  { channels: Type.Array(Channel, { maxItems: MAX_CHANNELS }) },
  { additionalProperties: false },
);
type Notifications = Static<typeof NotificationBody>;
const NotificationConfig = Type.Object({
  channels: Type.Array(Channel),
  redacted: Type.Boolean({ description: 'true when URL targets were shortened for a viewer' }),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  warnings: Type.Optional(
    Type.Array(Type.String(), { description: 'what an operator should know: unsigned webhook deliveries' }),
  ),
});

const LogArchiveAnswer = Type.Object({
  override: Type.Union([LogArchiveSetting, Type.Null()], { description: 'null: inherit the global setting' }),
  effective: LogArchiveSetting,
});

const CacheEntry = Type.Object({
  id: Uuid,
  key: Type.String(),
  size_bytes: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Optional(Type.String({ format: 'date-time' })),
});

export interface ProjectOperationsDeps {
  db: StoreDb;
  /** Global log-archive setting (CI_CONFIG `retention.log_archive` or the default). */
  logArchive: LogArchivePolicy;
  /** The storage backend holding cache blobs (`caches/<storage_key>`). */
  blobs: BlobStorage;
  /** Whether webhook notifications are signed (a signing secret is configured); default true. */
  webhooksSigned?: boolean;
}

const UNSIGNED_WARNING =
  'webhook channels are delivered unsigned (no X-CI-Signature header): no signing secret is configured; ' +
  'set CI_NOTIFICATION_SECRET or CI_CONFIG notifications.signing_secret so receivers can verify them';

const EMAIL = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
const CHAT_CHANNEL = /^[#@][\w.-]{1,80}$/;

function httpUrl(target: string): URL | undefined {
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Checks each target against its kind; answers the first problem as 400. */
function validateTargets(config: Notifications): void {
  for (const [i, c] of config.channels.entries()) {
    const where = `channels[${i}].target`;
    if (c.kind === 'email') {
      if (c.target.length > 254 || !EMAIL.test(c.target)) throw badRequest(`${where}: not an email address`);
      continue;
    }
    if (c.kind === 'chat' && CHAT_CHANNEL.test(c.target)) continue;
    const url = httpUrl(c.target);
    if (!url)
      throw badRequest(
        `${where}: ${c.kind === 'chat' ? 'an http(s) URL or a #channel name' : 'an http(s) URL'} is required`,
      );
    if (url.username || url.password) throw badRequest(`${where}: credentials in the URL are not allowed`);
  }
}

/** URL targets often embed a token (chat incoming webhooks): viewers see only the origin. */
function redact(config: Notifications): Notifications {
  return {
    channels: config.channels.map((c) => {
      const url = c.kind === 'email' ? undefined : httpUrl(c.target);
      return url ? { ...c, target: `${url.origin}/…` } : c;
    }),
  };
}

const canSeeTargets = (request: FastifyRequest) =>
  request.principal !== undefined && roleAtLeast(request.principal.role, 'maintainer');

export function registerProjectOperationRoutes(api: Api, deps: ProjectOperationsDeps): void {
  const db = deps.db;

  const projectId = (slug: string) => projectIdOf(db, slug);
  const readSetting = (project: string, key: string) => readProjectSetting(db, project, key);
  const writeSetting = (project: string, key: string, value: string | null) =>
    writeProjectSetting(db, project, key, value);
  const logArchiveOf = async (project: string) => {
    const row = await readSetting(project, 'log_archive');
    const override = row ? (decodeStoredPolicy(row.value) ?? null) : null;
    return {
      override: override && logArchiveView(override),
      effective: logArchiveView(override ?? deps.logArchive),
    };
  };

  api.get('/api/v1/projects/:slug/log-archive', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: "The project's log-archive override and the setting in effect",
      description:
        "`override`: the project's own setting, null when it inherits the global one (CI_CONFIG " +
        '`retention.log_archive`, default disabled after 30d). `effective`: what the archiver applies: a ' +
        "finished job's log older than `after` is compressed into one blob on the storage backend and its " +
        'rows removed. `after` is the delay as a duration, `after_days` the same in whole days.',
      params: SlugParams,
      response: { 200: LogArchiveAnswer, ...errors(400, 404) },
    },
    handler: async (request) => logArchiveOf(await projectId(request.params.slug)),
  });

  api.put('/api/v1/projects/:slug/log-archive', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: "Set or clear the project's log-archive override",
      description:
        '`{"override": {"enabled": true, "after": "12h"}}` (a duration; `0s` archives as soon as a job ' +
        'finishes) or `{"override": {"enabled": true, "after_days": 7}}` (an integer ≥ 1) sets the override; ' +
        'exactly one of `after` and `after_days`. `{"override": null}` removes it so the global setting ' +
        'applies. Answers like GET.',
      params: SlugParams,
      body: Type.Object(
        {
          override: Type.Union([
            Type.Object(
              {
                enabled: Type.Boolean(),
                after: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
                after_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 36500 })),
              },
              { additionalProperties: false },
            ),
            Type.Null(),
          ]),
        },
        { additionalProperties: false },
      ),
      response: { 200: LogArchiveAnswer, ...errors(400, 404) },
    },
    handler: async (request) => {
      const project = await projectId(request.params.slug);
      const { override } = request.body;
      let policy: LogArchivePolicy | null = null;
      if (override) {
        const parsed = parseLogArchive(override);
        if (typeof parsed === 'string') throw badRequest(`override: ${parsed}`);
        policy = parsed;
      }
      await writeSetting(project, 'log_archive', policy && encodeStoredPolicy(policy));
      request.auditNote = { target: `project:${request.params.slug}`, details: { setting: 'log_archive' } };
      return logArchiveOf(project);
    },
  });

  const notificationsOf = async (project: string, full: boolean) => {
    const row = await readSetting(project, 'notifications');
    const config: Notifications = row ? JSON.parse(row.value) : { channels: [] };
    const shown = full ? config : redact(config);
    const unsigned = deps.webhooksSigned === false && config.channels.some((c) => c.kind === 'webhook');
    return {
      channels: shown.channels,
      redacted: !full,
      updated_at: row?.updated_at ?? null,
      ...(unsigned ? { warnings: [UNSIGNED_WARNING] } : {}),
    };
  };

  api.get('/api/v1/projects/:slug/notifications', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: "The project's notification config",
      description:
        'Channels and the events each wants (delivered through an outbox with retries). ' +
        'Maintainers and admins see targets in full; viewers see URL targets cut to their origin ' +
        '(`redacted: true`), since chat and webhook URLs often carry a token.',
      params: SlugParams,
      response: { 200: NotificationConfig, ...errors(400, 404) },
    },
    handler: async (request) => notificationsOf(await projectId(request.params.slug), canSeeTargets(request)),
  });

  api.put('/api/v1/projects/:slug/notifications', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: "Replace the project's notification config",
      description:
        '`{"channels": [{"kind": "webhook"|"email"|"chat", "target": "…", "events": ["run.failed", …]}]}`, ' +
        `at most ${MAX_CHANNELS} channels. Events: ${NOTIFICATION_EVENTS.join(', ')} (at least one, no ` +
        'repeats). Targets: webhook an http(s) URL, email an address, chat an http(s) incoming-webhook URL or ' +
        'a `#channel`; URLs may not carry credentials. Unknown fields are 400. `{"channels": []}` turns ' +
        'notifications off. Events are written to an outbox in the transaction of the run transition and ' +
        'delivered with retries (docs/ci-operations.md); the history is at `/notifications/deliveries`.',
      params: SlugParams,
      body: NotificationBody,
      response: { 200: NotificationConfig, ...errors(400, 404) },
    },
    handler: async (request) => {
      const project = await projectId(request.params.slug);
      validateTargets(request.body);
      const channels = request.body.channels.map((c) => ({
        kind: c.kind,
        target: c.target,
        events: c.events,
      }));
      await writeSetting(project, 'notifications', JSON.stringify({ channels }));
      request.auditNote = {
        target: `project:${request.params.slug}`,
        details: { setting: 'notifications', channels: channels.length },
      };
      return notificationsOf(project, true);
    },
  });

  api.get('/api/v1/projects/:slug/caches', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: 'Cache entries of the project',
      description: 'Most recently used first. `size_bytes` is the stored archive.',
      params: SlugParams,
      querystring: Type.Object({
        limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
        offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
      }),
      response: {
        200: Type.Object({
          caches: Type.Array(CacheEntry),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
        ...errors(400, 404),
      },
    },
    handler: async (request) => {
      const project = await projectId(request.params.slug);
      const { limit, offset } = request.query;
      const { entries, total } = await listCacheEntries(db, project, { limit, offset });
      return {
        caches: entries,
        total,
        limit,
        offset,
      };
    },
  });

  api.delete('/api/v1/projects/:slug/caches/:id', {
    config: { access: 'admin' },
    schema: {
      tags: ['projects'],
      summary: 'Purge a cache entry',
      description: 'Removes the entry and its archive; the next run that asks for the key misses.',
      params: Type.Object({ slug: SlugParams.properties.slug, id: Uuid }),
      response: { 204: NoContent, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      const project = await projectId(request.params.slug);
      const storageKey = await deleteCacheEntry(db, project, request.params.id);
      if (storageKey === undefined)
        throw notFound(`project "${request.params.slug}" has no cache entry ${request.params.id}`);
      // After the row: a lookup racing the purge finds no row rather than a row without its file.
      await deps.blobs.delete(`caches/${storageKey}`).catch(() => {});
      request.auditNote = { target: `cache_entry:${request.params.id}` };
      return reply.code(204).send();
    },
  });
}
