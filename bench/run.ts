// Entry of `npm run bench`: runs every benchmark of this folder in turn. Each prints its figures as ratios to
// a baseline measured in the same run (see README.md); a benchmark failing makes the whole run fail.
import { run as ciOps } from './ci-ops.bench.js';
import { run as ciWeb } from './ci-web.bench.js';
import { run as dispatch } from './dispatch.bench.js';
import { run as engines } from './engines.bench.js';
import { run as logIngest } from './log-ingest.bench.js';
import { run as portalFootprint } from './portal-footprint.bench.js';
import { run as portalImport } from './portal-import.bench.js';
import { run as portalQuery } from './portal-query.bench.js';
import { run as portalWeb } from './portal-web.bench.js';
import { run as replicas } from './replicas.bench.js';
import { run as runsList } from './runs-list.bench.js';
import { run as seedData } from './seed.bench.js';
import { run as sseFollowers } from './sse-followers.bench.js';

const benchmarks: [string, () => Promise<unknown>][] = [
  ['runs list', runsList],
  ['log ingestion', logIngest],
  ['dispatch', dispatch],
  ['replicas on one PostgreSQL', replicas],
  ['1,000 SSE followers of one run', sseFollowers],
  ['portal query and export', portalQuery],
  ['portal seed data', seedData],
  ['portal table import', portalImport],
  ['portal footprint', portalFootprint],
  ['portal web first load', portalWeb],
  ['CI web UI', ciWeb],
  ['CI operations (log archive, retention)', ciOps],
  ['agent engines: added cost per job', engines],
];

for (const [name, bench] of benchmarks) {
  console.log(`\n== ${name} ==`);
  await bench();
}
process.exit(0);
