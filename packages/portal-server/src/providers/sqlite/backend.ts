// What the SQLite-family provider needs from a connection: the process-backed file connection (SQLite and
// libSQL files) and the network client of libSQL both implement it.

import { type EmbeddedDriver, EmbeddedWorker } from '../embedded/host.js';
import type { ParamValue } from '../types.js';

export interface RawResult {
  fields: string[];
  types: string[];
  rows: unknown[][];
  truncated: boolean;
  changes?: number;
}

export interface BackendSession {
  query(
    sql: string,
    params: ParamValue[],
    maxRows: number,
    onStart?: (cancel: () => Promise<void>) => void,
  ): Promise<RawResult>;
  close(): Promise<void>;
}

export interface SqliteBackend {
  /** `true` for a network database (the remote kind refuses file-level maintenance). */
  readonly remote: boolean;
  query(
    sql: string,
    params: ParamValue[],
    maxRows: number,
    onStart?: (cancel: () => Promise<void>) => void,
  ): Promise<RawResult>;
  openSession(): Promise<BackendSession>;
  stream(sql: string, params: ParamValue[], batchSize: number): AsyncGenerator<RawResult>;
  connections(): number;
  close(): Promise<void>;
}

/** File databases: one engine process for pooled statements, a fresh one per session and per export. */
export class WorkerBackend implements SqliteBackend {
  readonly remote = false;
  private readonly main: EmbeddedWorker;
  private open = 0;

  constructor(
    readonly driver: EmbeddedDriver,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    this.main = new EmbeddedWorker(driver, path);
  }

  query(sql: string, params: ParamValue[], maxRows: number, onStart?: (cancel: () => Promise<void>) => void) {
    return this.main.call<RawResult>('query', { sql, params, maxRows }, this.timeoutMs, onStart);
  }

  async openSession(): Promise<BackendSession> {
    const w = new EmbeddedWorker(this.driver, this.path);
    this.open++;
    let closed = false;
    return {
      query: (sql, params, maxRows, onStart) =>
        w.call<RawResult>('query', { sql, params, maxRows }, this.timeoutMs, onStart),
      close: async () => {
        if (closed) return;
        closed = true;
        this.open--;
        // Closing the connection rolls back an open transaction.
        await w.close();
      },
    };
  }

  async *stream(sql: string, params: ParamValue[], batchSize: number): AsyncGenerator<RawResult> {
    const w = new EmbeddedWorker(this.driver, this.path, true);
    this.open++;
    try {
      const cols = await w.call<{ fields: string[]; types: string[] }>(
        'streamOpen',
        { sql, params },
        this.timeoutMs,
      );
      for (;;) {
        const next = await w.call<{ rows: unknown[][]; done: boolean }>(
          'streamNext',
          { n: batchSize },
          this.timeoutMs,
        );
        yield { ...cols, rows: next.rows, truncated: false };
        if (next.done) break;
      }
    } finally {
      this.open--;
      await w.kill();
    }
  }

  connections(): number {
    return (this.main.alive ? 1 : 0) + this.open;
  }

  close(): Promise<void> {
    return this.main.close();
  }
}
