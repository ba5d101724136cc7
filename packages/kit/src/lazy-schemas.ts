// Fastify's own schema compilers (Ajv for request validation, fast-json-stringify for responses), deferred:
// each route's validator and serializer is compiled on the route's first use instead of while the server
// starts. A service with a hundred routes otherwise spends ~0.4 s of its start compiling schemas, most of
// which a given process never serves. Behaviour is otherwise Fastify's: same compilers, same options, same
// shared schemas; Fastify reads a failed validation's errors from the function's `errors` property, which
// the wrapper copies from the compiled one. Trade-off: a schema that cannot compile fails on its route's
// first request (a 500) rather than at start; the route and OpenAPI tests exercise every route.
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;
/** Both packages' factories, seen through what the wrappers need: (shared schemas, options) => (route) => fn. */
type Builder<F> = (externalSchemas: unknown, options: unknown) => (route: unknown) => F;

export function lazySchemaCompilers(): Factory {
  const buildValidator = AjvCompiler() as unknown as Builder<Validate>;
  const buildSerializer = SerializerSelector() as unknown as Builder<Serialize>;
  const lazyValidator: Builder<Validate> = (externalSchemas, options) => {
    const compile = buildValidator(externalSchemas, options);
    return (route) => {
      let validate: Validate | undefined;
      const lazy: Validate = (data) => {
        validate ??= compile(route);
        const result = validate(data);
        lazy.errors = validate.errors;
        return result;
      };
      return lazy;
    };
  };
  const lazySerializer: Builder<Serialize> = (externalSchemas, options) => {
    const compile = buildSerializer(externalSchemas, options);
    return (route) => {
      let serialize: Serialize | undefined;
      return (data) => {
        serialize ??= compile(route);
        return serialize(data);
      };
    };
  };
  return { buildValidator: lazyValidator, buildSerializer: lazySerializer } as unknown as Factory;
}
