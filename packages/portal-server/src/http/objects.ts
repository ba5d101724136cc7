// The object surface: POST /api/db/objects/list, /inventory, /counts and /describe, answering the
// DatabaseObject, Container, KindCount and ObjectDetail (ColumnSchema, IndexSchema, ForeignKeySchema) shapes.
// Each is one catalog read per engine, bounded to 10000 objects; object rules (governance) filter the lists
// and turn a hidden object's describe into 404.
import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { allowAllGovernance, type ExecutionContext, type QueryDeps } from '../execution/contracts.js';
import { executionContext, resolveTarget } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import type { Provider } from '../providers/types.js';
import { connectionSchema, DB_ERRORS } from './connection-schema.js';
import { sessionFor, strictBody } from './request-input.js';
import { ObjectCounts, ObjectDetail, ObjectInventory, ObjectList, rowsAsJson } from './response-schemas.js';

const SHAPES =
  'DatabaseObject {path: string[] (containers then the name), name, kind, status?, rowCount?, sizeBytes?}; ' +
  'Container {path, name, kind (schema | database)}; KindCount {path (container), kind, count}; ' +
  'ObjectDetail {object: DatabaseObject, columns: [{name, type, nullable, isPrimary, defaultValue?}], indexes: [{name, columns, unique}], ' +
  'foreignKeys: [{columnName, constraintName, referencedPath, referencedTable, referencedColumn, onUpdate?, onDelete?}], definition?}.';

/** What each object route answers (its response schema). */
const ANSWERS: Record<string, object> = {
  list: ObjectList,
  inventory: ObjectInventory,
  counts: ObjectCounts,
  describe: ObjectDetail,
};

function parsePath(v: unknown, required: boolean): string[] | undefined {
  if (v === undefined || v === null) {
    if (required) throw new HttpError(400, 'path is required (a DatabaseObject path)', 'BAD_REQUEST');
    return undefined;
  }
  if (
    !Array.isArray(v) ||
    v.length > 4 ||
    v.some((p) => typeof p !== 'string' || p === '' || p.length > 512)
  ) {
    throw new HttpError(400, 'path must be an array of 1..4 non-empty strings', 'BAD_REQUEST');
  }
  if (required && v.length === 0) throw new HttpError(400, 'path must name an object', 'BAD_REQUEST');
  return v as string[];
}

export function registerObjectRoutes(app: FastifyInstance, deps: QueryDeps): void {
  const route = (
    name: string,
    description: string,
    extra: Record<string, unknown>,
    handle: (p: Provider, body: Record<string, unknown>, ctx: ExecutionContext) => Promise<unknown>,
  ) =>
    app.post(
      `/api/db/objects/${name}`,
      {
        preValidation: strictBody,
        ...rowsAsJson,
        schema: {
          tags: ['database objects'],
          description: `${description} Shapes: ${SHAPES}`,
          body: {
            type: 'object',
            properties: {
              connection: connectionSchema,
              connectionId: { type: 'string' },
              ...extra,
            },
            additionalProperties: true,
          },
          response: { 200: ANSWERS[name], ...DB_ERRORS },
        },
      },
      async (request) => {
        const session = await sessionFor(deps, request);
        const body = (request.body ?? {}) as Record<string, unknown>;
        const target = await resolveTarget(deps, session, body);
        const ctx = executionContext(session, target, 'objects', [], [], undefined);
        try {
          return await deps.providers.use(target.descriptor, (p) => handle(p, body, ctx));
        } catch (err) {
          throw toHttpError(err);
        }
      },
    );

  const visible = <T extends { path: readonly string[] }>(ctx: ExecutionContext, list: T[]) =>
    list.filter((o) => deps.governance.isObjectVisible(ctx, o.path));

  route(
    'list',
    '`{connection, path?, search?, limit?}`: objects of one container (`path` = [schema] or [database]) or of the whole connection → `{objects: DatabaseObject[]}`. ' +
      '`search` keeps the objects whose name contains it (case-insensitive; the exact name first, then names starting with it) and `limit` caps the answer; with either, the answer adds `truncated` (more matched than were sent), so an editor can complete a name without fetching a 10,000-table catalog.',
    {
      path: { description: 'string array: a DatabaseObject path' },
      search: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        description: 'name contains (case-insensitive)',
      },
      limit: { type: 'integer', minimum: 1, maximum: 10000, description: 'at most this many objects' },
    },
    async (p, body, ctx) => {
      const objects = visible(ctx, await p.catalog.listObjects(parsePath(body.path, false)));
      const search = body.search as string | undefined;
      const limit = body.limit as number | undefined;
      if (search === undefined && limit === undefined) return { objects };
      // The catalog read stays whole (no engine filters names the same way); the answer is what is bounded.
      const needle = search?.toLowerCase();
      // The exact name first, then names that start with the text: what a completion list wants on top.
      const rank = (name: string, text: string) => (name === text ? 0 : name.startsWith(text) ? 1 : 2);
      const matched = needle
        ? objects
            .map((o) => ({ o, name: o.name.toLowerCase() }))
            .filter((x) => x.name.includes(needle))
            .map((x) => ({ o: x.o, r: rank(x.name, needle) }))
            .sort((a, b) => a.r - b.r)
            .map((x) => x.o)
        : objects;
      const cap = limit ?? matched.length;
      return { objects: matched.slice(0, cap), truncated: matched.length > cap };
    },
  );

  route(
    'inventory',
    '`{connection}` → `{containers: Container[], objects: DatabaseObject[], truncated}` in one catalog read.',
    {},
    async (p, _body, ctx) => {
      const inv = await p.catalog.inventory();
      return { containers: inv.containers, objects: visible(ctx, inv.objects), truncated: inv.truncated };
    },
  );

  route(
    'counts',
    '`{connection}` → `{counts: KindCount[]}` (objects per container and kind).',
    {},
    async (p, _body, ctx) => {
      // The engine counts directly unless object rules may hide something; then count the visible objects.
      if (deps.governance.isObjectVisible === allowAllGovernance.isObjectVisible)
        return { counts: await p.catalog.counts() };
      const objects = visible(ctx, await p.catalog.listObjects(undefined));
      const merged = new Map<string, { path: readonly string[]; kind: string; count: number }>();
      for (const o of objects) {
        const container = o.path.slice(0, -1);
        const key = `${container.join('\u0000')}\u0001${o.kind}`;
        const e = merged.get(key) ?? { path: container, kind: o.kind, count: 0 };
        e.count++;
        merged.set(key, e);
      }
      return { counts: [...merged.values()] };
    },
  );

  route(
    'describe',
    '`{connection, path}` (a DatabaseObject path) → ObjectDetail; 404 for an unknown or hidden object.',
    { path: { description: 'string array: a DatabaseObject path' } },
    async (p, body, ctx) => {
      const path = parsePath(body.path, true)!;
      if (!deps.governance.isObjectVisible(ctx, path)) throw notFound('Unknown object');
      const detail = await p.catalog.describe(path);
      if (!detail) throw notFound(`Unknown object ${path.join('.')}`);
      return detail;
    },
  );
}
