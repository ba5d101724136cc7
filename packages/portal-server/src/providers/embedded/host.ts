// The server side of an embedded engine process (child.mjs): request/response over IPC (structured clone, so
// big integers and bytes arrive intact). The queue lives here and the child gets one statement at a time, so
// cancelling a queued statement just drops it, and stopping the running one (cancel, timeout) kills the
// process — the only way to stop a synchronous driver inside native code — while the statements queued behind
// it go on in a fresh process.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withDeadline } from '../deadline.js';
import { ProviderError } from '../errors.js';

export type EmbeddedDriver = 'better-sqlite3' | 'libsql';

interface Job {
  id: number;
  msg: Record<string, unknown>;
  resolve: (v: any) => void;
  reject: (e: Error) => void;
}

type Reply = {
  ready?: boolean;
  id?: number;
  ok?: boolean;
  result?: unknown;
  error?: { message: string; code?: string };
};

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));

export class EmbeddedWorker {
  private child?: ChildProcess;
  private ready?: Promise<void>;
  private readonly queue: Job[] = [];
  private running?: Job;
  private nextId = 1;
  private closed = false;

  constructor(
    readonly driver: EmbeddedDriver,
    readonly path: string,
    readonly readonly = false,
  ) {}

  get alive(): boolean {
    return this.child !== undefined;
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const child = fork(
      CHILD,
      [JSON.stringify({ driver: this.driver, path: this.path, readonly: this.readonly })],
      {
        serialization: 'advanced',
        execArgv: [],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      },
    );
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      child.on('message', (msg: Reply) => {
        if (msg.ready) return resolve();
        const job = this.running;
        if (!job || job.id !== msg.id) return;
        this.running = undefined;
        if (msg.ok) job.resolve(msg.result);
        else job.reject(mapEmbeddedError(msg.error!));
        this.pump();
      });
      const gone = (why: string) => {
        const err = new ProviderError(
          'connection',
          `Embedded engine ${why}${stderr ? `: ${stderr.trim()}` : ''}`,
        );
        reject(err);
        if (this.child !== child) return;
        this.child = undefined;
        this.ready = undefined;
        const job = this.running;
        this.running = undefined;
        job?.reject(err);
        this.pump();
      };
      child.on('error', (err) => gone(`failed (${err.message})`));
      child.on('exit', (code, signal) => gone(`exited (${signal ?? code})`));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  /** Sends the next queued statement when the child is idle. */
  private pump(): void {
    if (this.running || this.queue.length === 0 || this.closed) return;
    const job = this.queue.shift()!;
    this.running = job;
    this.start().then(
      () => {
        if (this.running === job) this.child?.send(job.msg);
      },
      (err: Error) => {
        if (this.running !== job) return;
        this.running = undefined;
        job.reject(err);
        this.pump();
      },
    );
  }

  /** Stops one statement: dropped from the queue, or (when running) the process is killed. */
  private stop(id: number, reason: Error): void {
    const i = this.queue.findIndex((j) => j.id === id);
    if (i >= 0) {
      this.queue.splice(i, 1)[0].reject(reason);
      return;
    }
    if (this.running?.id !== id) return;
    const job = this.running;
    const child = this.child;
    this.running = undefined;
    this.child = undefined;
    this.ready = undefined;
    child?.kill('SIGKILL');
    job.reject(reason);
    this.pump();
  }

  async call<T>(
    op: string,
    payload: Record<string, unknown>,
    timeoutMs: number,
    onStart?: (cancel: () => Promise<void>) => void,
  ): Promise<T> {
    if (this.closed) throw new ProviderError('connection', 'Connection closed');
    const id = this.nextId++;
    const result = new Promise<T>((resolve, reject) =>
      this.queue.push({ id, msg: { id, op, ...payload }, resolve, reject }),
    );
    this.pump();
    const cancel = async () => this.stop(id, new ProviderError('cancelled', 'Query cancelled'));
    onStart?.(cancel);
    return withDeadline(result, { timeoutMs, cancel });
  }

  /** Kills the process and fails everything queued (end of a session or an export). */
  async kill(reason = new ProviderError('connection', 'Connection closed')): Promise<void> {
    this.closed = true;
    const pending = [...this.queue, ...(this.running ? [this.running] : [])];
    this.queue.length = 0;
    this.running = undefined;
    const child = this.child;
    this.child = undefined;
    this.ready = undefined;
    child?.kill('SIGKILL');
    for (const job of pending) job.reject(reason);
  }

  /** Closes the connection cleanly when idle (a rollback of anything open), else kills it. */
  async close(): Promise<void> {
    if (this.child && !this.running && this.queue.length === 0) {
      await this.call('close', {}, 5_000).catch(() => undefined);
    }
    await this.kill();
  }
}

function mapEmbeddedError(e: { message: string; code?: string }): ProviderError {
  const code = e.code ?? '';
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB')
    return new ProviderError('connection', e.message, code);
  if (code === 'SQLITE_INTERRUPT') return new ProviderError('cancelled', e.message, code);
  return new ProviderError('query', e.message, code);
}
