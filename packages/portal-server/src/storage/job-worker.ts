// Drains the job queue: claims runnable jobs of the types it has handlers for (up to `concurrency` at once),
// renews each job's lease while its handler runs, records the outcome, and re-queues jobs whose worker died.
// The `studio` role runs one by default and the `worker` role always does; later features register handlers.
import { hostname } from 'node:os';
import type { Job, JobQueue } from './jobs.js';

export interface JobContext {
  /** Aborted when the worker stops or the job's lease is lost; long handlers should stop early. */
  signal: AbortSignal;
}

export type JobHandler = (job: Job, ctx: JobContext) => Promise<unknown>;

export interface JobWorkerOptions {
  workerId?: string;
  /** Idle poll interval (default 1000 ms); `wake()` skips the wait after an enqueue in this process. */
  pollMs?: number;
  leaseMs?: number;
  concurrency?: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export class JobWorker {
  readonly workerId: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopController = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private started = false;
  private lastExpiryCheck = 0;

  constructor(
    private readonly queue: JobQueue,
    private readonly options: JobWorkerOptions = {},
  ) {
    this.workerId =
      options.workerId ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  }

  register(type: string, handler: JobHandler): this {
    this.handlers.set(type, handler);
    return this;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Runs a poll now (e.g. right after this process enqueued a job). */
  wake(): void {
    if (this.started && !this.stopController.signal.aborted) this.schedule(0);
  }

  /** Stops claiming, signals running handlers and waits for them to settle. */
  async stop(): Promise<void> {
    this.stopController.abort();
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }

  /** Claims and runs jobs until none is runnable; answers how many ran. For tests and one-shot drains. */
  async drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const job = await this.queue.claim(this.workerId, {
        leaseMs: this.leaseMs,
        types: [...this.handlers.keys()],
      });
      if (!job) return ran;
      await this.run(job);
      ran++;
    }
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 60_000;
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delay);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.stopController.signal.aborted) return;
    this.ticking = true;
    try {
      if (Date.now() - this.lastExpiryCheck > this.leaseMs / 2) {
        this.lastExpiryCheck = Date.now();
        const { requeued, failed } = await this.queue.requeueExpired();
        if (requeued || failed.length) {
          this.options.log?.warn({ requeued, failed: failed.map((j) => j.id) }, 'jobs with lapsed leases');
        }
      }
      const types = [...this.handlers.keys()];
      while (types.length && this.running.size < (this.options.concurrency ?? 1)) {
        if (this.stopController.signal.aborted) break;
        const job = await this.queue.claim(this.workerId, { leaseMs: this.leaseMs, types });
        if (!job) break;
        const done = this.run(job).finally(() => {
          this.running.delete(job.id);
          this.wake();
        });
        this.running.set(job.id, done);
      }
    } catch (err) {
      this.options.log?.error({ err }, 'job queue poll failed');
    } finally {
      this.ticking = false;
      if (!this.stopController.signal.aborted) this.schedule(this.options.pollMs ?? 1000);
    }
  }

  private async run(job: Job): Promise<void> {
    const handler = this.handlers.get(job.type);
    const controller = new AbortController();
    const onStop = () => controller.abort();
    this.stopController.signal.addEventListener('abort', onStop, { once: true });
    // Renew at a third of the lease so one missed renewal does not lose the job.
    const renewal = setInterval(() => {
      this.queue.renew(job.id, this.workerId, this.leaseMs).then(
        (held) => {
          if (!held) controller.abort();
        },
        () => {},
      );
    }, this.leaseMs / 3);
    renewal.unref();
    try {
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      const result = await handler(job, { signal: controller.signal });
      await this.queue.complete(job.id, this.workerId, result ?? null);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.queue.fail(job.id, this.workerId, message).catch((e) => {
        this.options.log?.error({ err: e, jobId: job.id }, 'could not record a job failure');
      });
    } finally {
      clearInterval(renewal);
      this.stopController.signal.removeEventListener('abort', onStop);
    }
  }
}
