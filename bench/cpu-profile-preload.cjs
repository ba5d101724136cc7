// Preloaded into a control plane the benchmark starts as its own process (`NODE_OPTIONS=--require …`, since
// Node 20 refuses --cpu-prof there): SIGUSR2 starts a CPU profile, the next SIGUSR2 writes it to
// `$BENCH_CPU_PROFILE_DIR/<pid>-<n>.cpuprofile`, so a profile covers the measured phase only, not start-up.
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROFILE_DIR;
const session = new Session();
session.connect();
let running = false;
let n = 0;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  running = false;
  session.post('Profiler.stop', (err, result) => {
    if (!err && dir)
      writeFileSync(join(dir, `${process.pid}-${++n}.cpuprofile`), JSON.stringify(result.profile));
  });
});
