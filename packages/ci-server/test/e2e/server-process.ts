// A control plane as its own process (its bundle, as `npm start` runs it: kit's testing/service-command.ts),
// for the tests that SIGKILL it: server-kill, restart and replicas. One copy of the start-up, readiness wait and kill that
// those tests used to carry each. Processes still alive when the test process exits are SIGKILLed.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@app/kit';
import { serviceArgs } from '@app/kit/testing';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Waits until /readyz answers 200. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown) and wait; SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Starts a control plane with `env` (which must name CI_HTTP_PORT; CI_DATA_DIR and the rest as needed). */
export function startServerProcess(env: Record<string, string>, output: 'ignore' | 'inherit' = 'ignore') {
  const child = spawn(process.execPath, serviceArgs('ci'), {
    cwd: ROOT,
    // Cleartext agent port unless the test asks for TLS (harness.ts says why).
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      CI_GRPC_TLS: 'off',
      ...env,
    },
    stdio: ['ignore', output, output],
  });
  children.add(child);
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      children.delete(child);
      done();
    }),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const base = `http://127.0.0.1:${env.CI_HTTP_PORT}`;
  const self: ServerProcess = {
    child,
    base,
    async ready(timeoutMs = 60_000) {
      // A process that dies while starting fails at once (not after the whole timeout), so a caller can retry.
      const died = exited.then(() => {
        throw new Error(`the control plane on ${base} exited (${child.exitCode}) while starting`);
      });
      await Promise.race([
        waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, {
          what: `the control plane on ${base} to be ready`,
          timeoutMs,
        }),
        died,
      ]);
    },
    async kill9() {
      if (gone()) return;
      child.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 15_000) {
      if (gone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
  return self;
}

/** SIGKILLs every control-plane process this test file started (afterAll). */
export async function killServerProcesses(): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGKILL');
        }),
    ),
  );
}
