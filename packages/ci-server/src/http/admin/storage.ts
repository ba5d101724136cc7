// Admin: the storage backend of artifacts, caches and archived logs as runtime configuration, kept in
// `server_settings` under `storage` (blobs/storage-config.ts). Backends: `local` (a folder) and `s3` (an
// S3-compatible bucket). The process opens its backend once at start (stored config, else CI_CONFIG
// `storage`, else CI_DATA_DIR) and keeps it; a PUT or DELETE that would change it answers
// `X-Service-Restart-Required: true`. Nothing is copied between backends. The S3 secret key is stored sealed
// and never answered (`secret_access_key_set` says whether one is set).
import { isAbsolute, normalize } from 'node:path';
import { badRequest } from '@app/kit';
import { type Static, Type } from 'typebox';
import {
  describeStorage,
  encodeStored,
  parseS3Settings,
  readStoredStorage,
  STORAGE_SETTING_KEY,
  type StorageConfig,
  StorageConfigError,
  sameStorage,
} from '../../blobs/storage-config.js';
import type { StoreDb } from '../../store/database.js';
import { writeServerSetting } from '../../store/settings.js';
import type { Api } from '../context.js';
import { errors } from '../schemas.js';

export const STORAGE_BACKENDS = ['local', 's3'] as const;
const RESTART_HEADER = 'X-Service-Restart-Required';

const S3View = Type.Object({
  bucket: Type.String(),
  endpoint: Type.Union([Type.String(), Type.Null()]),
  region: Type.String(),
  prefix: Type.String(),
  force_path_style: Type.Boolean(),
  access_key_id: Type.Union([Type.String(), Type.Null()]),
  secret_access_key_set: Type.Boolean(),
});

const StorageAnswer = Type.Object({
  backend: Type.Enum([...STORAGE_BACKENDS]),
  path: Type.Optional(
    Type.String({ description: 'local: absolute folder holding artifacts/, caches/, logs/' }),
  ),
  s3: Type.Optional(S3View),
  source: Type.Enum(['default', 'config', 'stored'], {
    description: '`default`: CI_DATA_DIR; `config`: CI_CONFIG `storage`; `stored`: set by PUT',
  }),
  restart_required: Type.Boolean({
    description: 'true when this configuration differs from the backend the running process opened',
  }),
});
type Answer = Static<typeof StorageAnswer>;

const S3Body = Type.Object(
  {
    bucket: Type.String({ minLength: 3, maxLength: 63 }),
    endpoint: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    prefix: Type.Optional(Type.String({ maxLength: 512 })),
    force_path_style: Type.Optional(Type.Boolean()),
    access_key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    secret_access_key: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

const Body = Type.Object(
  {
    // A string rather than an enum, so an unsupported backend gets a message naming the supported ones.
    backend: Type.String({ minLength: 1, maxLength: 50, description: '`local` or `s3`' }),
    path: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'local: an absolute folder' }),
    ),
    s3: Type.Optional(S3Body),
  },
  { additionalProperties: false },
);

export interface StorageRouteDeps {
  db: StoreDb;
  secretKey: string;
  /** The configuration the running process opened. */
  running: StorageConfig;
  /** What applies without a stored configuration (CI_CONFIG `storage` or the data folder), and its source. */
  fallback: { config: StorageConfig; source: 'default' | 'config' };
}

export function registerAdminStorageRoutes(api: Api, deps: StorageRouteDeps): void {
  const db = deps.db;

  const read = async (): Promise<{ config: StorageConfig; answer: Answer }> => {
    const stored = await readStoredStorage(db, deps.secretKey).catch(() => undefined);
    const config = stored ?? deps.fallback.config;
    const answer = {
      ...describeStorage(config),
      source: stored ? ('stored' as const) : deps.fallback.source,
      restart_required: !sameStorage(config, deps.running),
    };
    return { config, answer };
  };

  api.get('/api/v1/admin/storage', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Storage backend of artifacts, caches and archived logs',
      response: { 200: StorageAnswer },
    },
    handler: async () => (await read()).answer,
  });

  api.put('/api/v1/admin/storage', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Change the storage backend (applied at the next start)',
      description:
        '`{"backend": "local", "path": "/abs/folder"}` or `{"backend": "s3", "s3": {"bucket", "endpoint"?, ' +
        '"region"?, "prefix"?, "force_path_style"?, "access_key_id"?, "secret_access_key"?}}`. Another backend ' +
        'is 400 naming the supported ones. Stored in the database (the secret sealed with CI_SECRET_KEY) and ' +
        'applied when the server starts; nothing is copied between backends. When the answer differs from ' +
        `what the running process uses, the response carries \`${RESTART_HEADER}: true\`. An S3 body without ` +
        '`secret_access_key` but with the stored `access_key_id` keeps the stored secret.',
      body: Body,
      response: { 200: StorageAnswer, ...errors(400) },
    },
    handler: async (request, reply) => {
      const body = request.body;
      let next: StorageConfig;
      if (body.backend === 'local') {
        if (body.s3 !== undefined) throw badRequest('s3 settings are only for backend "s3"');
        if (body.path === undefined) throw badRequest('backend "local" needs path, an absolute folder');
        if (!isAbsolute(body.path) || body.path.includes('\u0000'))
          throw badRequest('path must be an absolute folder');
        next = { backend: 'local', path: normalize(body.path) };
      } else if (body.backend === 's3') {
        if (body.path !== undefined) throw badRequest('path is only for backend "local"');
        if (body.s3 === undefined) throw badRequest('backend "s3" needs s3: {bucket, …}');
        const raw: Record<string, unknown> = { ...body.s3 };
        const previous = (await read()).config;
        if (
          raw.secret_access_key === undefined &&
          raw.access_key_id !== undefined &&
          previous.backend === 's3' &&
          previous.s3.accessKeyId === raw.access_key_id
        )
          raw.secret_access_key = previous.s3.secretAccessKey;
        try {
          next = { backend: 's3', s3: parseS3Settings(raw, 's3') };
        } catch (err) {
          if (err instanceof StorageConfigError) throw badRequest(err.message);
          throw err;
        }
      } else {
        throw badRequest(
          `storage backend "${body.backend}" is not supported; supported backends: ${STORAGE_BACKENDS.join(', ')}`,
        );
      }
      const value = encodeStored(next, deps.secretKey);
      await writeServerSetting(db, STORAGE_SETTING_KEY, value);
      request.auditNote = { target: 'server_settings:storage', details: { backend: next.backend } };
      const { answer } = await read();
      if (answer.restart_required) reply.header(RESTART_HEADER, 'true');
      return answer;
    },
  });

  api.delete('/api/v1/admin/storage', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Reset the storage backend to CI_CONFIG `storage` (or CI_DATA_DIR)',
      description: `Removes the stored configuration; \`${RESTART_HEADER}: true\` when that changes the backend in use.`,
      response: { 200: StorageAnswer },
    },
    handler: async (request, reply) => {
      await writeServerSetting(db, STORAGE_SETTING_KEY, null);
      request.auditNote = { target: 'server_settings:storage' };
      const { answer } = await read();
      if (answer.restart_required) reply.header(RESTART_HEADER, 'true');
      return answer;
    },
  });
}
