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

type Verb = 'get' | 'post' | 'put' | 'delete';
/** The routes of `Paths` that take `method`. */
export type RouteOf<Paths, M extends Verb> = {
  [P in keyof Paths]: Paths[P] extends Record<M, { responses: unknown }> ? P : never;
}[keyof Paths];

/** How a typed call reaches the app's client: the filled-in path, the method, the JSON body, the options. */
export type Send<Options> = <T>(
  path: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  body: unknown,
  options: Options,
) => Promise<T>;

/** A typed call's options: the app's own, plus `params` for the route's `{name}` placeholders. */
export type TypedOptions<Options> = Options & { params?: Record<string, string | number> };

/**
 * The app's `apiGet`/`apiPost`/`apiPut`/`apiDelete` over `send`: each takes a route of the generated `Paths`
 * and answers what that route's OpenAPI description says it answers (its first 2xx), so no page types an
 * answer by hand. Both apps build theirs here (ci-web/src/api/client.ts, portal-web/src/lib/api.ts).
 */
export function typedCalls<Paths, Options extends object>(send: Send<Options>) {
  const call = <T>(
    method: Uppercase<Verb>,
    route: string,
    body: unknown,
    options?: TypedOptions<Options>,
  ) => {
    const { params, ...rest } = options ?? ({} as TypedOptions<Options>);
    return send<T>(params ? pathOf(route, params) : route, method, body, rest as Options);
  };
  return {
    /** `GET route`, answered as the route's generated response type. */
    apiGet: <P extends RouteOf<Paths, 'get'> & string>(route: P, options?: TypedOptions<Options>) =>
      call<ResponseOf<Paths, P, 'get'>>('GET', route, undefined, options),
    /** `POST route` with a JSON body, answered as the route's generated response type. */
    apiPost: <P extends RouteOf<Paths, 'post'> & string>(
      route: P,
      body?: unknown,
      options?: TypedOptions<Options>,
    ) => call<ResponseOf<Paths, P, 'post'>>('POST', route, body, options),
    /** `PUT route` with a JSON body, answered as the route's generated response type. */
    apiPut: <P extends RouteOf<Paths, 'put'> & string>(
      route: P,
      body: unknown,
      options?: TypedOptions<Options>,
    ) => call<ResponseOf<Paths, P, 'put'>>('PUT', route, body, options),
    /** `DELETE route`, answered as the route's generated response type. */
    apiDelete: <P extends RouteOf<Paths, 'delete'> & string>(route: P, options?: TypedOptions<Options>) =>
      call<ResponseOf<Paths, P, 'delete'>>('DELETE', route, undefined, options),
  };
}
