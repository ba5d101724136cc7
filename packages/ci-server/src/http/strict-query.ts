// Strict query strings. The CI's Ajv does not coerce types (a JSON `{"name": 123}` must stay a number and be
// refused), so query values, which are always text, are turned into the types their route schema declares
// here, before validation, and only from their plain spelling: an integer is `0` or an optional `-` and digits
// without a leading zero that fits a safe integer (`1e999`, `1.5`, `-0`, `NaN`, `0x10`, `Infinity`, 20 digits
// and the empty string are refused); a boolean is `true` or `false`. A scalar given twice is refused too.
// Ranges (minimum/maximum) are then checked by the schema and worded by http/validation.ts.
import { badRequest } from '@app/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Json = Record<string, unknown>;
type Kind = 'integer' | 'number' | 'boolean' | 'array' | 'text';

const INTEGER = /^(0|-?[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function kindOf(schema: Json | undefined): Kind {
  if (!schema) return 'text';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const k of ['array', 'integer', 'number', 'boolean'] as const) if (types.includes(k)) return k;
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(branches)) {
    const kinds = new Set(branches.map(kindOf));
    if (kinds.size === 1) return [...kinds][0];
  }
  return 'text';
}

function convert(name: string, raw: string, kind: Kind): unknown {
  switch (kind) {
    case 'integer': {
      const n = Number(raw);
      if (!INTEGER.test(raw) || !Number.isSafeInteger(n))
        throw badRequest(`Invalid request: query parameter ${name} must be integer`);
      return n;
    }
    case 'number': {
      const n = Number(raw);
      if (!NUMBER.test(raw) || !Number.isFinite(n))
        throw badRequest(`Invalid request: query parameter ${name} must be number`);
      return n;
    }
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw badRequest(`Invalid request: query parameter ${name} must be boolean (true or false)`);
    default:
      return raw;
  }
}

/** The query converted to the types of `schema` (a route's querystring schema). Exported for tests. */
export function typedQuery(query: Json, schema: Json): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const rest =
    typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as Json) : undefined;
  const out: Json = {};
  for (const [name, value] of Object.entries(query)) {
    const prop = properties[name] ?? rest;
    const kind = kindOf(prop);
    if (kind === 'array') {
      const items = kindOf(prop?.items as Json | undefined);
      const list = Array.isArray(value) ? value : [value];
      out[name] = list.map((v) => convert(name, String(v), items));
    } else if (Array.isArray(value)) {
      throw badRequest(`Invalid request: query parameter ${name} must be given once`);
    } else {
      out[name] = typeof value === 'string' ? convert(name, value, kind) : value;
    }
  }
  return out;
}

function querySchema(request: FastifyRequest): Json | undefined {
  const schema = request.routeOptions.schema as { querystring?: Json } | undefined;
  return schema?.querystring;
}

/** Installs the conversion on `app` and every plugin registered after it. */
export function registerStrictQuery(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const schema = querySchema(request);
    if (!schema || !request.query || typeof request.query !== 'object') return;
    request.query = typedQuery(request.query as Json, schema);
  });
}
