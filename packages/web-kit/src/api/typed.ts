// Type helpers over the interfaces openapi-typescript generates (src/api/gen/*.ts): the JSON a route answers,
// the JSON body it takes and its query, looked up by path template and method, so a page writes
// `ResponseOf<CiPaths, '/api/v1/runs/{id}'>` instead of hand-copying the server's shapes.

type Lower<M extends string> = Lowercase<M>;
type OpOf<Paths, P extends keyof Paths, M extends string> =
  Paths[P] extends Record<Lower<M>, infer O> ? O : never;
type JsonOf<C> = C extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON of the first 2xx answer (200, 201, 202) of `M P`. */
export type ResponseOf<Paths, P extends keyof Paths, M extends string = 'get'> =
  OpOf<Paths, P, M> extends {
    responses: infer R;
  }
    ? R extends { 200: infer C }
      ? JsonOf<C>
      : R extends { 201: infer C }
        ? JsonOf<C>
        : R extends { 202: infer C }
          ? JsonOf<C>
          : never
    : never;

/** The JSON body `M P` takes. */
export type BodyOf<Paths, P extends keyof Paths, M extends string = 'post'> =
  OpOf<Paths, P, M> extends {
    requestBody?: infer B;
  }
    ? JsonOf<NonNullable<B>>
    : never;

/** The query parameters of `M P`. */
export type QueryOf<Paths, P extends keyof Paths, M extends string = 'get'> =
  OpOf<Paths, P, M> extends {
    parameters: { query?: infer Q };
  }
    ? NonNullable<Q>
    : never;

/** Fills `{name}` placeholders of a path template with URI-encoded values. */
export function pathOf(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}
