// Processes in their own process group, so that a job's script or a service can be stopped together with
// everything it started (`sleep 600 &`, test runners' workers, ...): signals go to the group (`kill(-pgid)`),
// SIGTERM first and SIGKILL after a grace period. A process that calls setsid() leaves the group and is out
// of reach; the docs say so.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  error?: Error;
}

export interface GroupProcess {
  child: ChildProcess;
  /** Process id of the leader, which is also the process group id. */
  pid: number;
  exited: Promise<Exit>;
  /** Settles once the process runs (undefined) or failed to start (the error). */
  spawned: Promise<Error | undefined>;
  /** Whether the leader has exited (or never started). */
  readonly done: boolean;
}

export interface SpawnGroupOptions {
  cwd: string;
  env: Record<string, string>;
}

export function spawnGroup(command: string, args: string[], opts: SpawnGroupOptions): GroupProcess {
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true, // new session and process group with the child as leader
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let done = false;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      // 'error' without 'exit' means the process never ran; with 'exit' the first settle wins.
      if (child.pid === undefined) {
        done = true;
        resolve({ code: null, signal: null, error });
      }
    });
  });
  const spawned = new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (error) => resolve(error));
  });
  return {
    child,
    pid: child.pid ?? -1,
    exited,
    spawned,
    get done() {
      return done;
    },
  };
}

/** Sends a signal to every process of the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (pgid <= 0) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Live (non-zombie) members of a process group, read from /proc; undefined where /proc is unavailable. */
function groupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      // Fields after the command name "(...)": state, ppid, pgrp, ...
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(e));
    } catch {
      // The process ended while we looked.
    }
  }
  return members;
}

/** Whether any live process is left in the group. */
export function groupAlive(pgid: number): boolean {
  if (pgid <= 0) return false;
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process is alive (a zombie counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return true;
    await sleep(50);
  }
  return !groupAlive(pgid);
}

/**
 * Stops every process of the group: SIGTERM, then SIGKILL for whatever is left after `graceMs`. Resolves
 * once the group is empty (or, after SIGKILL, at the latest 5 s later: a process in uninterruptible sleep
 * cannot be waited for forever).
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  // SIGTERM is ignored by a stopped process until it continues.
  signalGroup(pgid, 'SIGCONT');
  if (await waitGroupGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitGroupGone(pgid, 5_000);
}
