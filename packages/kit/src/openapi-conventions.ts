// What both services' OpenAPI descriptions owe the standard tools (swagger-parser, Redocly's recommended
// rules, client generators), applied once to the document @fastify/swagger generated: a `servers` entry,
// a summary and a unique operationId on every operation, `security` on every operation (empty for a public
// one), and for every protected operation the 401 and 403 answers with the service's error body. Route
// schemas stay the source of truth; this only fills in what a route did not say.

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OpenApiConventions {
  /** The operation's security requirements: `[]` when it is public. */
  security(method: string, path: string, operation: Json): Json[];
  /** The JSON schema of the service's error body. */
  errorSchema: Json;
}

/** A short summary from the description's first sentence, or from the method and path. */
function summaryOf(method: string, path: string, operation: Json): string {
  const text = typeof operation.description === 'string' ? operation.description : '';
  const first = text
    .split(/\n\n/)[0]
    .replace(/\s+/g, ' ')
    .trim()
    .match(/^(.+?[.:;])(\s|$)/)?.[1]
    ?.replace(/[.:;]$/, '');
  if (first && !first.startsWith('Minimum access') && first.length <= 100) return first;
  return `${method.toUpperCase()} ${path}`;
}

/** `get /api/v1/runs/{id}/logs` → `getApiV1RunsIdLogs`. */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

const errorAnswer = (description: string, schema: Json) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Fills in the conventions on `doc` (a fresh copy the caller owns) and returns it. */
export function completeOpenApi(doc: Json, conventions: OpenApiConventions): Json {
  doc.servers ??= [{ url: '/', description: 'this deployment (where this description is served)' }];
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      op.summary ??= summaryOf(method, path, op);
      let id = op.operationId ?? operationIdOf(method, path);
      for (let n = 2; ids.has(id); n++) id = `${operationIdOf(method, path)}${n}`;
      ids.add(id);
      op.operationId = id;
      const security = conventions.security(method, path, op);
      op.security = security;
      if (security.length === 0) continue;
      op.responses ??= {};
      op.responses['401'] ??= errorAnswer(
        'Not signed in: no session and no valid token',
        conventions.errorSchema,
      );
      op.responses['403'] ??= errorAnswer(
        'Signed in, but the role or token does not allow this',
        conventions.errorSchema,
      );
    }
  }
  return doc;
}
