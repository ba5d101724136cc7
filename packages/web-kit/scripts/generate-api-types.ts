// Writes the OpenAPI snapshots (src/api/gen/ci-openapi.json, src/api/gen/portal-openapi.json) and the TypeScript API types generated
// from them (src/api/gen/ci.ts, src/api/gen/portal.ts). Starts no server: each app is built in-process.
// Run with `npm run gen:api -w packages/web-kit`; test/api-types.test.ts fails when they are out of date.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCiApi, generatePortalApi } from './openapi-source.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ci = await generateCiApi();
writeFileSync(join(root, 'src/api/gen/ci-openapi.json'), ci.json);
writeFileSync(join(root, 'src/api/gen/ci.ts'), ci.types);
const portal = await generatePortalApi();
writeFileSync(join(root, 'src/api/gen/portal-openapi.json'), portal.json);
writeFileSync(join(root, 'src/api/gen/portal.ts'), portal.types);
console.log('wrote src/api/gen/{ci,portal}{-openapi.json,.ts}');
process.exit(0);
