// The committed OpenAPI snapshots and the TypeScript types generated from them match what the servers
// describe today: a route schema changed without `npm run gen:api -w packages/web-kit` fails here, naming
// the file to regenerate.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateCiApi, generatePortalApi } from '../scripts/openapi-source.js';

const gen = join(dirname(fileURLToPath(import.meta.url)), '../src/api/gen');
const read = (name: string) => readFileSync(join(gen, name), 'utf8');

describe('generated API types', () => {
  it('match the CI control plane OpenAPI description', async () => {
    const ci = await generateCiApi();
    expect(JSON.parse(ci.json).paths['/api/v1/runs/{id}']).toBeDefined();
    expect(ci.json === read('ci-openapi.json'), 'src/api/gen/ci-openapi.json is stale: run gen:api').toBe(
      true,
    );
    expect(ci.types === read('ci.ts'), 'src/api/gen/ci.ts is stale: run gen:api').toBe(true);
    expect(ci.types).toContain('"/api/v1/runs/{id}": {');
  });

  it('match the database portal OpenAPI description', async () => {
    const portal = await generatePortalApi();
    expect(JSON.parse(portal.json).paths['/api/db/query']).toBeDefined();
    expect(portal.json === read('portal-openapi.json'), 'src/api/gen/portal-openapi.json is stale').toBe(
      true,
    );
    expect(portal.types === read('portal.ts'), 'src/api/gen/portal.ts is stale: run gen:api').toBe(true);
  });
});
