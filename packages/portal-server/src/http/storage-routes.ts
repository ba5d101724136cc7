// Server-side storage routes of the signed-in user (spec: "the remaining storage CRUD routes: not shown",
// decided in docs/portal-storage.md): saved connections (credentials sealed at rest and never sent back),
// saved queries, and query history. Every route verifies the session (401) and then needs server storage
// (503 STORAGE_UNAVAILABLE when STORAGE_PROVIDER is local).
import { conflict, HttpError, notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ENGINE_TYPES } from '../datasources/types.js';
import type { PortalStore } from '../storage/store.js';
import { requireUser, type SessionReader } from './connections.js';
import { strictBody } from './request-input.js';
import {
  Deleted,
  errorResponses,
  HistoryEntryAnswer,
  HistoryPage,
  SavedQueryAnswer,
  SavedQueryPage,
  StoredConnection,
  StoredConnections,
  Success,
} from './response-schemas.js';

export interface StorageRoutesOptions {
  sessions: SessionReader;
  store: PortalStore | undefined;
  /** A saved connection may not take the id of a managed datasource (the managed one always wins). */
  isManaged: (id: string) => boolean;
}

export function storageUnavailable(): HttpError {
  return new HttpError(
    503,
    'Server storage is not enabled on this deployment (STORAGE_PROVIDER is local); the browser keeps this data',
    'STORAGE_UNAVAILABLE',
  );
}

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Paging = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  // A maximum also refuses `1e999`, which coerces to Infinity and would pass an integer check alone.
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
});
const EngineType = Type.Union(ENGINE_TYPES.map((t) => Type.Literal(t)));
const Descriptor = Type.Object(
  {
    id: Type.Optional(Id),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: EngineType,
  },
  { additionalProperties: true },
);
const QueryBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  sql: Type.String({ maxLength: 1_048_576 }),
  connectionId: Type.Optional(Type.Union([Type.Null(), Id])),
  description: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 4000 })])),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
});
const HistoryBody = Type.Object({
  connectionId: Type.Optional(Type.Union([Type.Null(), Id])),
  connectionName: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })])),
  sql: Type.String({ maxLength: 1_048_576 }),
  status: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  rowCount: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0 })])),
  durationMs: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0 })])),
  error: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 4000 })])),
});

/**
 * limit/offset after schema validation, checked once more: the validator's number coercion reads `1e999` as
 * Infinity, which slipped through its integer and range checks into SQL (a 500 before this check).
 */
function paging(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  const limit = query.limit ?? 100;
  const offset = query.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) {
    throw new HttpError(400, 'limit must be an integer from 1 to 500', 'BAD_REQUEST');
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new HttpError(400, 'offset must be a non-negative integer', 'BAD_REQUEST');
  }
  return { limit, offset };
}

export function registerStorageRoutes(root: FastifyInstance, options: StorageRoutesOptions): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { sessions } = options;
  const storeOr503 = (): PortalStore => {
    if (!options.store) throw storageUnavailable();
    return options.store;
  };
  // 401 before 503: whether storage exists is not news to an anonymous caller, but order keeps it uniform.
  const owner = async (request: Parameters<SessionReader>[0]) =>
    (await requireUser(sessions, request)).username;

  // Every storage route: 401 without a session, 503 without server storage; bodies checked without coercion.
  const ERRORS = errorResponses(400, 401, 404, 409, 503);
  const tags = ['storage'];
  const withBody = { preValidation: strictBody };

  // ---- saved connections ----
  const listConnections = {
    tags,
    description: "The caller's saved connections (credentials never sent back: `storedSecrets` names them).",
    response: { 200: StoredConnections, ...ERRORS },
  };
  app.get('/api/storage/connections', { schema: listConnections }, async (request) => {
    const user = await owner(request);
    return { connections: await storeOr503().connections.list(user) };
  });

  app.put(
    '/api/storage/connections/:id',
    {
      bodyLimit: 256 * 1024,
      ...withBody,
      schema: {
        tags,
        description:
          'Creates (201) or replaces (200) a saved connection; credentials are sealed at rest. 409 the id of a managed datasource.',
        params: Type.Object({ id: Id }),
        body: Descriptor,
        response: { 200: StoredConnection, 201: StoredConnection, ...ERRORS },
      },
    },
    async (request, reply) => {
      const user = await owner(request);
      const store = storeOr503();
      const { id } = request.params;
      if (request.body.id !== undefined && request.body.id !== id) {
        throw new HttpError(400, 'The body id differs from the id in the path', 'BAD_REQUEST');
      }
      if (options.isManaged(id))
        throw conflict(`"${id}" is the id of a managed datasource; choose another id`);
      const { connection, created } = await store.connections.upsert(user, { ...request.body, id });
      return reply.code(created ? 201 : 200).send({ connection });
    },
  );

  app.delete(
    '/api/storage/connections/:id',
    {
      schema: {
        tags,
        description: 'Deletes a saved connection; 404 unknown id.',
        params: Type.Object({ id: Id }),
        response: { 200: Success, ...ERRORS },
      },
    },
    async (request) => {
      const user = await owner(request);
      if (!(await storeOr503().connections.delete(user, request.params.id)))
        throw notFound('No saved connection with this id');
      return { success: true };
    },
  );

  // ---- saved queries ----
  const listQueries = {
    tags,
    description: "The caller's saved queries, newest first: `{queries, total, limit, offset}`.",
    querystring: Paging,
    response: { 200: SavedQueryPage, ...ERRORS },
  };
  app.get('/api/storage/queries', { schema: listQueries }, async (request) => {
    const user = await owner(request);
    const { limit, offset } = paging(request.query);
    const page = await storeOr503().queries.list(user, { limit, offset });
    return { ...page, limit, offset };
  });

  app.post(
    '/api/storage/queries',
    {
      bodyLimit: 2 * 1024 * 1024,
      ...withBody,
      schema: {
        tags,
        description: 'Saves a query (201).',
        body: QueryBody,
        response: { 201: SavedQueryAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      const user = await owner(request);
      return reply.code(201).send({ query: await storeOr503().queries.create(user, request.body) });
    },
  );

  app.put(
    '/api/storage/queries/:id',
    {
      bodyLimit: 2 * 1024 * 1024,
      ...withBody,
      schema: {
        tags,
        description: 'Replaces a saved query; 404 unknown id.',
        params: Type.Object({ id: Id }),
        body: QueryBody,
        response: { 200: SavedQueryAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const user = await owner(request);
      const query = await storeOr503().queries.update(user, request.params.id, request.body);
      if (!query) throw notFound('No saved query with this id');
      return { query };
    },
  );

  const deleteQuery = {
    tags,
    description: 'Deletes a saved query; 404 unknown id.',
    params: Type.Object({ id: Id }),
    response: { 200: Success, ...ERRORS },
  };
  app.delete('/api/storage/queries/:id', { schema: deleteQuery }, async (request) => {
    const user = await owner(request);
    if (!(await storeOr503().queries.delete(user, request.params.id)))
      throw notFound('No saved query with this id');
    return { success: true };
  });

  // ---- query history ----
  app.get(
    '/api/storage/history',
    {
      schema: {
        tags,
        description: "The caller's query history, newest first: `{entries, total, limit, offset}`.",
        querystring: Type.Object({ ...Paging.properties, connectionId: Type.Optional(Id) }),
        response: { 200: HistoryPage, ...ERRORS },
      },
    },
    async (request) => {
      const user = await owner(request);
      const { limit, offset } = paging(request.query);
      const page = await storeOr503().history.list(user, {
        limit,
        offset,
        connectionId: request.query.connectionId,
      });
      return { ...page, limit, offset };
    },
  );

  app.post(
    '/api/storage/history',
    {
      bodyLimit: 2 * 1024 * 1024,
      ...withBody,
      schema: {
        tags,
        description: 'Appends a history entry (201); the oldest beyond the per-user limit go.',
        body: HistoryBody,
        response: { 201: HistoryEntryAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      const user = await owner(request);
      const b = request.body;
      const entry = await storeOr503().history.add(user, {
        connectionId: b.connectionId ?? null,
        connectionName: b.connectionName ?? null,
        sql: b.sql,
        status: b.status,
        rowCount: b.rowCount ?? null,
        durationMs: b.durationMs ?? null,
        error: b.error ?? null,
      });
      return reply.code(201).send({ entry });
    },
  );

  const clearHistory = {
    tags,
    description: "Clears the caller's query history: `{deleted}` (how many entries went).",
    response: { 200: Deleted, ...ERRORS },
  };
  app.delete('/api/storage/history', { schema: clearHistory }, async (request) => {
    const user = await owner(request);
    return { deleted: await storeOr503().history.clear(user) };
  });
}
