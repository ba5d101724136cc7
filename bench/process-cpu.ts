// CPU of the processes a benchmark drives, measured from outside them: PostgreSQL's (the postmaster and its
// backends, from /proc) and a CPU profile of this process over one phase (the inspector), so a benchmark can
// print what each process spent per unit of work and where its own time went. Used by dispatch.bench.ts and
// sse-followers.bench.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * `BENCH_PROFILE=<dir>`: a CPU profile of the control plane's process during the burst only (no start-up,
 * no module loading), written as `<dir>/dispatch-<store>-<mode>.cpuprofile` by the returned function.
 */
export async function startProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * CPU ms spent so far by the PostgreSQL listening on `port` (this machine's own: startPostgres), from /proc:
 * the postmaster and its live backends, plus the children it has reaped (a closed pool's backends).
 * Undefined where /proc cannot tell.
 */
export function postgresCpuMs(port: string): number | undefined {
  const ticks = (fields: string[], from: number, n: number) =>
    fields.slice(from, from + n).reduce((sum, f) => sum + Number(f), 0);
  const stat = (pid: string) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is [0], ppid [1], utime [11] …
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  try {
    const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
    const master = pids.find((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return argv[0]?.endsWith('postgres') && argv[argv.indexOf('-p') + 1] === port;
      } catch {
        return false;
      }
    });
    if (!master) return undefined;
    // utime, stime, cutime, cstime (clock ticks of 10 ms).
    let total = ticks(stat(master), 11, 4);
    for (const pid of pids) {
      try {
        const f = stat(pid);
        if (f[1] === master) total += ticks(f, 11, 2);
      } catch {
        // Gone meanwhile.
      }
    }
    return total * 10;
  } catch {
    return undefined;
  }
}
