// Turns schema validation failures into messages a person can act on: which parameter or field, and what is
// wrong with it ("query parameter limit must be <= 200", "body has an unknown field \"x\"", "path parameter
// id must be a UUID"). The app's error handler answers them as 400 `{error}`.
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

const PLACES: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'body field',
  headers: 'header',
};

function where(dataVar: string, instancePath: string): string {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (path === '')
    return dataVar === 'querystring' ? 'the query' : dataVar === 'params' ? 'the path' : `the ${dataVar}`;
  return `${PLACES[dataVar] ?? dataVar} ${path}`;
}

export function describeValidation(errors: FastifySchemaValidationError[], dataVar: string): string {
  const e = errors[0];
  const params = (e.params ?? {}) as Record<string, unknown>;
  const at = where(dataVar, e.instancePath);
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      if (dataVar === 'querystring') return `unknown query parameter "${name}"`;
      return `${at} has an unknown ${dataVar === 'body' ? 'field' : 'property'} "${name}"`;
    }
    case 'required':
      return `${at} is missing the required ${dataVar === 'querystring' ? 'parameter' : 'field'} "${String(params.missingProperty)}"`;
    case 'format':
    case 'pattern':
      if (params.format === 'uuid' || String(params.pattern ?? '').includes('[0-9a-fA-F]{8}'))
        return `${at} must be a UUID`;
      if (String(params.pattern ?? '').startsWith('^[a-z0-9][a-z0-9-]'))
        return `${at} must be a slug (lowercase letters, digits and "-")`;
      return `${at} ${e.message}`;
    case 'enum':
      return `${at} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${at} ${e.message}`;
  }
}

/** Schema error formatter for `setSchemaErrorFormatter`. */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  return new Error(describeValidation(errors, dataVar));
}
