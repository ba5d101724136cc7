// The AI routes `POST /api/ai/explain`, `/api/ai/query-safety` and `/api/ai/describe-schema` (session): one
// model call grounded in the server's own classification of the statement (its verdict is part of every
// answer: the model never decides whether a statement writes) and, for a managed datasource, the object
// surface the caller may see (hidden objects left out, masked columns removed). Nothing is executed.
// Without AI_PROVIDER (and AI_MODEL) they answer 503 AI_NOT_CONFIGURED. Rate limited per person.

import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ExecutionAdapter } from '../agent/execution-adapter.js';
import type { AiClient } from '../ai/client.js';
import {
  classifyForAi,
  referencedObjectsText,
  schemaText,
  type Verdict,
  verdictText,
} from '../ai/grounding.js';
import { SYSTEM_PROMPTS, userMessage } from '../ai/prompts.js';
import type { Principal } from '../auth/principal.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { AiAnswer, AiSchemaAnswer } from './ai-schemas.js';
import { connectionSchema } from './connection-schema.js';
import { rateLimitHook, requireSession } from './guard.js';
import { checkedByHandler } from './request-input.js';
import { errorResponses } from './response-schemas.js';

/** Longest SQL or schema text sent to a model (far below the execution limit: model context is small). */
export const AI_MAX_INPUT_CHARS = 100_000;

export interface AiRoutesOptions {
  /** The client, or the reason AI is off (src/ai/client.ts `createAiClient`). */
  ai: { client: AiClient } | { reason: string };
  /** Reads managed datasources' object surface as the caller may see it. */
  adapter: ExecutionAdapter;
  rateBudget?: { max: number; windowMs: number };
}

function bodyOf(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new HttpError(400, 'The body must be a JSON object', 'BAD_REQUEST');
  return raw as Record<string, unknown>;
}

function inputText(field: 'sql' | 'schema', value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (field === 'schema' && value !== null && typeof value === 'object')
    text = JSON.stringify(value, null, 1);
  else
    throw new HttpError(
      400,
      `${field} must be a ${field === 'sql' ? 'string' : 'string or object'}`,
      'BAD_REQUEST',
    );
  if (text.trim() === '') throw new HttpError(400, `${field} is empty`, 'BAD_REQUEST');
  if (text.length > AI_MAX_INPUT_CHARS) {
    throw new HttpError(
      413,
      `${field} is ${text.length} characters; the AI limit is ${AI_MAX_INPUT_CHARS}`,
      'PAYLOAD_TOO_LARGE',
    );
  }
  return text;
}

/** `connectionId`, or `connection.id` as the query routes accept it. */
function datasourceIdOf(b: Record<string, unknown>): string | undefined {
  if (b.connectionId !== undefined) {
    if (typeof b.connectionId !== 'string' || b.connectionId === '')
      throw new HttpError(400, 'connectionId must be a non-empty string', 'BAD_REQUEST');
    return b.connectionId;
  }
  const conn = b.connection;
  if (conn !== undefined && (conn === null || typeof conn !== 'object' || Array.isArray(conn)))
    throw new HttpError(400, 'connection must be an object', 'BAD_REQUEST');
  const id = (conn as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** A plain engine name from `dialect` or `connection.type`. */
function engineOf(b: Record<string, unknown>): string | undefined {
  if (b.dialect !== undefined && typeof b.dialect !== 'string')
    throw new HttpError(400, 'dialect must be a string', 'BAD_REQUEST');
  const conn = b.connection as { type?: unknown } | undefined;
  const d = (b.dialect as string | undefined) ?? (typeof conn?.type === 'string' ? conn.type : undefined);
  if (d !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(d))
    throw new HttpError(400, 'dialect must be an engine id such as postgres or mysql', 'BAD_REQUEST');
  return d;
}

function parsePath(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > 3 || v.some((p) => typeof p !== 'string' || p === '' || p.length > 512))
    throw new HttpError(
      400,
      'path must be an array of up to 3 non-empty strings (a container path)',
      'BAD_REQUEST',
    );
  return v as string[];
}

const SQL_DESCRIPTION =
  '`{sql, connectionId? | connection?: {id?, type?}, dialect?}` → `{text, classification}`. `classification` is the ' +
  "server's verdict ({dialect, isWrite, transactionControl, guardrails, statements: [{index, statementType, kind, doubtful, objects}]}); " +
  'the model is told it and never decides it. With a managed datasource the columns of the objects used (masked ones removed) ground the answer. ' +
  'A dialect (or a datasource) is required. 503 AI_NOT_CONFIGURED, 502 AI_PROVIDER_ERROR, 504 AI_TIMEOUT, 429 over budget.';

const Connection = {
  connectionId: Type.Optional(
    Type.String({ minLength: 1, description: 'a managed datasource grounds the answer' }),
  ),
  connection: Type.Optional(connectionSchema),
};
const SqlBody = Type.Object({
  sql: Type.String({ minLength: 1, maxLength: AI_MAX_INPUT_CHARS }),
  dialect: Type.Optional(Type.String({ description: 'the engine, when no datasource names it' })),
  ...Connection,
});
const SchemaBody = Type.Object({
  path: Type.Optional(Type.Array(Type.String(), { description: 'a container path of the datasource' })),
  schema: Type.Optional(
    Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
      description: 'schema text or JSON, without a datasource',
    }),
  ),
  ...Connection,
});
const AI_ERRORS = errorResponses(400, 401, 404, 413, 429, 502, 503, 504);

export function registerAiRoutes(app: FastifyInstance, options: AiRoutesOptions): void {
  // A test may give the routes a budget of their own; otherwise the configured one (PORTAL_RATE_AI_PER_USER).
  const own = options.rateBudget ? new RateLimiter(options.rateBudget) : undefined;
  const preHandler = rateLimitHook(
    (app) => own ?? app.portalAuth.limits.ai,
    async (request) => `user:${(await requireSession(request)).username}`,
  );
  const client = (): AiClient => {
    if (!('client' in options.ai)) throw new HttpError(503, options.ai.reason, 'AI_NOT_CONFIGURED');
    return options.ai.client;
  };

  const sqlRoute = (feature: 'explain' | 'query-safety', summary: string) =>
    app.post(
      `/api/ai/${feature}`,
      {
        preHandler,
        bodyLimit: 1024 * 1024,
        schema: {
          tags: ['ai'],
          description: `${summary}: ${SQL_DESCRIPTION}`,
          body: SqlBody,
          response: { 200: AiAnswer, ...AI_ERRORS },
        },
        // The handler checks the body after the session and the rate limit, in its own words.
        ...checkedByHandler,
      },
      async (request) => {
        const user = await requireSession(request);
        const model = client();
        const b = bodyOf(request.body);
        const sql = inputText('sql', b.sql);
        const id = datasourceIdOf(b);
        let engine = engineOf(b);
        let defaultSchema: string | undefined;
        const managed = id !== undefined && (await isManaged(options.adapter, user, id));
        if (id && managed) {
          const t = await options.adapter.target(user, id);
          engine = t.engine;
          defaultSchema = t.managed.policy.objectRules?.defaultSchema;
        }
        if (!engine)
          throw new HttpError(
            400,
            'Name the engine: dialect (e.g. postgres) or a datasource connectionId',
            'BAD_REQUEST',
          );
        const classification: Verdict = await classifyForAi(sql, engine, defaultSchema);
        const grounding =
          id && managed ? await referencedObjectsText(options.adapter, user, id, classification) : '';
        const prompt = [userMessage(feature, sql, engine), verdictText(classification), grounding]
          .filter(Boolean)
          .join('\n\n');
        const text = await model.complete(SYSTEM_PROMPTS[feature], prompt);
        return { text, classification };
      },
    );
  sqlRoute('explain', 'Explains a SQL statement in plain language');
  sqlRoute('query-safety', 'Reviews a SQL statement for risk before it runs');

  app.post(
    '/api/ai/describe-schema',
    {
      preHandler,
      bodyLimit: 1024 * 1024,
      schema: {
        tags: ['ai'],
        description:
          "Describes a schema: `{connectionId, path?}` reads the managed datasource's object surface (a container path, or the whole " +
          'datasource; hidden objects and masked columns are never sent; at most 30 objects) → `{text, objects}`; or `{schema}` (text ' +
          'or JSON the caller supplies) → `{text, objects: []}`. 503 AI_NOT_CONFIGURED, 502, 504, 429.',
        body: SchemaBody,
        response: { 200: AiSchemaAnswer, ...AI_ERRORS },
      },
      ...checkedByHandler,
    },
    async (request) => {
      const user = await requireSession(request);
      const model = client();
      const b = bodyOf(request.body);
      const id = datasourceIdOf(b);
      let text: string;
      let objects: string[] = [];
      if (id) {
        const surface = await schemaText(options.adapter, user, id, parsePath(b.path));
        if (surface.objects.length === 0)
          throw new HttpError(404, 'No tables or views you may see in that datasource or path', 'NOT_FOUND');
        text = surface.text;
        objects = surface.objects;
      } else {
        text = inputText('schema', b.schema);
      }
      const answer = await model.complete(
        SYSTEM_PROMPTS['describe-schema'],
        userMessage('describe-schema', text),
      );
      return { text: answer, objects };
    },
  );
}

/** Whether `id` is a managed datasource the user may see (user-created connections are not grounded). */
async function isManaged(adapter: ExecutionAdapter, user: Principal, id: string): Promise<boolean> {
  try {
    await adapter.target(user, id);
    return true;
  } catch (err) {
    // An unavailable datasource is an answer of its own (503), not a reason to go ungrounded.
    if (err instanceof HttpError && err.statusCode === 503) throw err;
    return false;
  }
}
