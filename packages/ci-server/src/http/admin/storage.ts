// Admin: the storage backend of artifacts and caches as runtime configuration, kept in `server_settings`
// under `storage`. Only `local` (a folder on this host) exists. The running process keeps the folder it
// started with, so a change of path is answered with `X-Service-Restart-Required: true`.
import { isAbsolute, normalize } from 'node:path';
import { badRequest } from '@app/kit';
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import { nowIso } from '../../store/ids.js';
import type { Api } from '../context.js';
import { errors } from '../schemas.js';

export const STORAGE_BACKENDS = ['local'] as const;
const KEY = 'storage';
const RESTART_HEADER = 'X-Service-Restart-Required';

const StorageConfig = Type.Object({
  backend: Type.Enum([...STORAGE_BACKENDS]),
  path: Type.String({ description: 'absolute folder holding artifacts/ and caches/' }),
  source: Type.Enum(['default', 'stored'], { description: '`default`: CI_DATA_DIR; `stored`: set by PUT' }),
  restart_required: Type.Boolean({
    description: 'true when this configuration differs from the folder the running process uses',
  }),
});
type Config = Static<typeof StorageConfig>;

const Body = Type.Object(
  {
    // A string rather than an enum, so an unsupported backend gets a message naming the supported ones.
    backend: Type.String({ minLength: 1, maxLength: 50, description: 'only `local` is supported' }),
    path: Type.String({ minLength: 1, maxLength: 1024, description: 'an absolute folder' }),
  },
  { additionalProperties: false },
);

export function registerAdminStorageRoutes(api: Api, rawDb: Kysely<any>, dataDir: string): void {
  const db = rawDb as Kysely<{ server_settings: { key: string; value: string; updated_at: string } }>;
  /** The folder this process uses: the configuration it would have to restart to change. */
  const running = normalize(dataDir);

  const read = async (): Promise<Config> => {
    const row = await db
      .selectFrom('server_settings')
      .select('value')
      .where('key', '=', KEY)
      .executeTakeFirst();
    let path = running;
    let source: Config['source'] = 'default';
    if (row) {
      let stored: { path?: unknown } = {};
      try {
        stored = JSON.parse(row.value);
      } catch {
        // An unreadable row counts as no configuration.
      }
      if (typeof stored?.path === 'string') {
        path = stored.path;
        source = 'stored';
      }
    }
    return { backend: 'local', path, source, restart_required: path !== running };
  };

  api.get('/api/v1/admin/storage', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Storage-backend configuration of artifacts and caches',
      response: { 200: StorageConfig },
    },
    handler: async () => read(),
  });

  api.put('/api/v1/admin/storage', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Change the storage-backend configuration',
      description:
        'Only `backend: "local"` is supported (another value is 400 naming the supported backends); `path` ' +
        'must be absolute. Stored in the database. The running process keeps using the folder it started ' +
        'with (its CI_DATA_DIR) and nothing is moved: when the answer is a path other than that folder the ' +
        `response carries \`${RESTART_HEADER}: true\`. The stored path is not yet applied at start either; ` +
        'move the data and set CI_DATA_DIR.',
      body: Body,
      response: { 200: StorageConfig, ...errors(400) },
    },
    handler: async (request, reply) => {
      const { backend, path } = request.body;
      if (!(STORAGE_BACKENDS as readonly string[]).includes(backend))
        throw badRequest(
          `storage backend "${backend}" is not supported; supported backends: ${STORAGE_BACKENDS.join(', ')}`,
        );
      if (!isAbsolute(path) || path.includes('\u0000')) throw badRequest('path must be an absolute folder');
      const value = JSON.stringify({ backend, path: normalize(path) });
      const updated_at = nowIso();
      await db
        .insertInto('server_settings')
        .values({ key: KEY, value, updated_at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at }))
        .execute();
      request.auditNote = { target: 'server_settings:storage', details: { backend } };
      const config = await read();
      if (config.restart_required) reply.header(RESTART_HEADER, 'true');
      return config;
    },
  });

  api.delete('/api/v1/admin/storage', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Reset the storage-backend configuration to the default',
      description:
        'Removes the stored configuration: `local` in CI_DATA_DIR, which the process already uses.',
      response: { 200: StorageConfig },
    },
    handler: async (request) => {
      await db.deleteFrom('server_settings').where('key', '=', KEY).execute();
      request.auditNote = { target: 'server_settings:storage' };
      return read();
    },
  });
}
