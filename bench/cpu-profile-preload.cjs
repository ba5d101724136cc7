// Preloaded into a control plane the benchmark starts as its own process (`NODE_OPTIONS=--require …`, since
// Node 20 refuses --cpu-prof there): SIGUSR2 starts a CPU profile and a count of the queries the process
// sends to PostgreSQL (by their first words); the next SIGUSR2 writes both to `$BENCH_CPU_PROFILE_DIR` as
// `<pid>-<n>.cpuprofile` and `<pid>-<n>.queries.json`, so they cover the measured phase only, not start-up.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const pg = require('pg');

const dir = process.env.BENCH_CPU_PROFILE_DIR;
/** Queries by shape while a phase is measured (undefined between phases). */
let queries;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  if (queries) {
    const text = typeof config === 'string' ? config : (config?.text ?? '');
    const shape = text.trim().replace(/\s+/g, ' ').slice(0, 60);
    queries.set(shape, (queries.get(shape) ?? 0) + 1);
  }
  return query.call(this, config, ...rest);
};

const session = new Session();
session.connect();
let running = false;
let n = 0;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    queries = new Map();
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  running = false;
  const counted = Object.fromEntries([...queries].sort((a, b) => b[1] - a[1]));
  queries = undefined;
  session.post('Profiler.stop', (err, result) => {
    if (!dir) return;
    const base = join(dir, `${process.pid}-${++n}`);
    writeFileSync(`${base}.queries.json`, JSON.stringify(counted, null, 1));
    if (!err) writeFileSync(`${base}.cpuprofile`, JSON.stringify(result.profile));
  });
});
