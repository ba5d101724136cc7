// Starting and stopping helper server processes for tests. Each started process is remembered so that it is
// stopped exactly once — by its owner, or at the latest when the test process exits — and never by name.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface RunAs {
  uid: number;
  gid: number;
}

/** When running as root, the uid/gid of `user` (PostgreSQL refuses to run as root). */
export function runAsUser(user: string): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', user]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', user]).toString().trim());
  return { uid, gid };
}

export function startProcess(
  cmd: string,
  args: string[],
  opts: { runAs?: RunAs; cwd?: string; stopSignal?: NodeJS.Signals } = {},
) {
  const child = spawn(cmd, args, {
    cwd: opts.cwd,
    uid: opts.runAs?.uid,
    gid: opts.runAs?.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolveExit(code);
    });
  });
  return {
    child,
    exited,
    output: () => output,
    async stop(timeoutMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(opts.stopSignal ?? 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type Started = ReturnType<typeof startProcess>;

export function runSync(cmd: string, args: string[], runAs?: RunAs): string {
  try {
    return execFileSync(cmd, args, { uid: runAs?.uid, gid: runAs?.gid, stdio: 'pipe' }).toString();
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed: ${e.stderr?.toString() || e.stdout?.toString() || e.message}`,
    );
  }
}

/** Finds an executable in PATH or in the given extra directories. */
export function findBinary(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...extraDirs, ...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  for (const dir of dirs) {
    const p = `${dir}/${name}`;
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

/** Binary directories of installed PostgreSQL major versions, newest first. */
export function postgresBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => `${root}/${v}/bin`);
}
