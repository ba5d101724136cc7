// Strict JSON bodies. The app's Ajv coerces types (so `?limit=5` becomes a number), which on a body would
// quietly turn `{"yaml": 42}` into "42". This hook checks a JSON body against its route schema first, with
// TypeBox and no coercion, and answers a wrong type as 400. It also lets routes marked `x-body-optional`
// be called without a body (treated as `{}`).
import { badRequest } from '@app/kit';
import { registerAjvFormats } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { describeValidation } from './validation.js';

// Formats (uuid, date-time, …) mean the same to TypeBox as to Ajv.
registerAjvFormats();

type Checker = ReturnType<typeof Compile>;
const compiled = new WeakMap<object, Checker>();

function checker(schema: object): Checker {
  let c = compiled.get(schema);
  if (!c) {
    c = Compile(schema as TSchema);
    compiled.set(schema, c);
  }
  return c;
}

function bodySchema(request: FastifyRequest): object | undefined {
  const body = (request.routeOptions.schema as { body?: Record<string, any> } | undefined)?.body;
  if (!body) return undefined;
  if (body.content && typeof body.content === 'object') return body.content['application/json']?.schema;
  return body;
}

/**
 * TypeBox reports an unknown key twice (`boolean`: schema false at the key, then `additionalProperties` on
 * the object, which names it). A wrong value under an `additionalProperties` schema (a trigger parameter
 * that is a number) also ends with `additionalProperties`, but follows the value's own error (`type`):
 * that one says what is wrong, where "unknown field" would mislead.
 */
function firstUseful(errors: any[]): any {
  const unknownKey = errors.find(
    (e) =>
      e.keyword === 'additionalProperties' &&
      errors.some((b) => b.keyword === 'boolean' && b.instancePath.startsWith(`${e.instancePath}/`)),
  );
  return (
    unknownKey ??
    errors.find((e) => e.keyword === 'required') ??
    errors.find((e) => !['boolean', 'additionalProperties', 'propertyNames'].includes(e.keyword)) ??
    errors[0]
  );
}

export function registerStrictBodies(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart()) return;
    const schema = (request.routeOptions.schema ?? {}) as Record<string, unknown>;
    if (request.body === undefined && schema['x-body-optional'] === true) request.body = {};
    const body = bodySchema(request);
    if (!body) return;
    const check = checker(body);
    if (check.Check(request.body)) return;
    const e = firstUseful([...check.Errors(request.body)]);
    const params = { ...e.params };
    if (e.keyword === 'additionalProperties') params.additionalProperty = params.additionalProperties?.[0];
    if (e.keyword === 'required') params.missingProperty = params.requiredProperties?.[0];
    throw badRequest(`Invalid request: ${describeValidation([{ ...e, params }], 'body')}`);
  });
}
