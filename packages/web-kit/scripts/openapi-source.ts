// Where the generated API types come from: each server's OpenAPI description, read from the app built
// in-process (no port is opened, nothing is started outside this process) and turned into TypeScript with
// openapi-typescript. Used by generate-api-types.ts (writes the files) and by the test that proves the
// committed files are current. Dev-time only: nothing a browser loads imports this file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

export interface GeneratedApi {
  /** The OpenAPI description as pretty JSON (committed under src/api/gen/ as the snapshot). */
  json: string;
  /** The TypeScript types (committed under src/api/gen/). */
  types: string;
}

const HEADER = (service: string) =>
  `// Generated from the ${service} OpenAPI description by packages/web-kit/scripts/generate-api-types.ts.\n// Do not edit: run \`npm run gen:api -w packages/web-kit\` after changing a route schema.\n`;

/**
 * @fastify/swagger turns a `Type.Record` querystring (the OIDC callback takes any provider parameter) into
 * bogus parameters named `type` and `additionalProperties` whose schema is a string; openapi-typescript
 * rightly refuses them. They carry no information a client can use, so they are dropped before generation.
 */
function dropMalformedParameters(doc: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(doc) as { paths?: Record<string, Record<string, { parameters?: unknown[] }>> };
  for (const item of Object.values(copy.paths ?? {}))
    for (const op of Object.values(item))
      if (Array.isArray(op?.parameters))
        op.parameters = op.parameters.filter((p) => typeof (p as { schema?: unknown }).schema === 'object');
  return copy as Record<string, unknown>;
}

async function toTypes(service: string, doc: Record<string, unknown>): Promise<string> {
  const source = dropMalformedParameters(doc) as unknown as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(source, { alphabetize: true });
  return HEADER(service) + astToString(ast);
}

/** Builds the app with `build`, reads `url` through inject, closes it. */
async function describeApp(
  build: (dir: string) => Promise<{
    app: { inject: (o: { url: string }) => Promise<{ statusCode: number; body: string }> };
    close(): Promise<void>;
  }>,
  url: string,
): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'web-kit-openapi-'));
  const server = await build(dir);
  try {
    const res = await server.app.inject({ url });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function generateCiApi(): Promise<GeneratedApi> {
  const { createCiServer, loadCiSettings } = await import('../../ci-server/src/index.js');
  const doc = await describeApp(
    (dir) =>
      createCiServer(
        loadCiSettings({
          CI_DATA_DIR: dir,
          CI_HOST: '127.0.0.1',
          CI_HTTP_PORT: '0',
          CI_GRPC_PORT: '0',
          CI_AGENT_TOKEN: 'openapi-generation',
          CI_SECRET_KEY: '3'.repeat(64),
        }),
        { logger: false },
      ),
    '/api/v1/openapi.json',
  );
  return { json: `${JSON.stringify(doc, null, 2)}\n`, types: await toTypes('CI control plane', doc) };
}

export async function generatePortalApi(): Promise<GeneratedApi> {
  const { createPortalServer, loadPortalSettings } = await import('../../portal-server/src/index.js');
  const doc = await describeApp(
    (dir) =>
      createPortalServer(
        loadPortalSettings({
          PORTAL_DATA_DIR: dir,
          PORT: '0',
          JWT_SECRET: 'openapi-generation-secret-that-is-long-enough-0123456789',
          ADMIN_EMAIL: 'admin@example.test',
          ADMIN_PASSWORD: 'openapi-generation-password',
          // With a model configured the agent routes register too (the model is never called here).
          AI_PROVIDER: 'openai',
          AI_BASE_URL: 'http://127.0.0.1:9/v1',
          AI_MODEL: 'openapi-generation',
          AI_API_KEY: 'openapi-generation',
        }),
        { logger: false },
      ),
    '/api/openapi.json',
  );
  return { json: `${JSON.stringify(doc, null, 2)}\n`, types: await toTypes('database portal', doc) };
}
