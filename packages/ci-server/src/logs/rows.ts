// Log rows on their way into and out of the log store (logs/store.ts): input normalisation (bad seqs and
// streams), text cleaning (NUL, line length), timestamps, and the stored shape replay and the hub carry.
import { MAX_LINE_CHARS } from './limits.js';
import type { LogLineInput, LogStream, StoredLogLine } from './types.js';

export const STREAMS = new Set<LogStream>(['stdout', 'stderr', 'system']);

export function cleanText(text: string): string {
  // PostgreSQL text cannot hold NUL; SQLite could, but both stores must say the same thing.
  const t = text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
  return t.length > MAX_LINE_CHARS ? t.slice(0, MAX_LINE_CHARS) : t;
}

export function isoOf(ms: number): string {
  const d = new Date(Number.isFinite(ms) ? ms : Date.now());
  return Number.isNaN(d.getTime()) ? new Date().toISOString() : d.toISOString();
}

export interface Row {
  seq: number;
  stream: LogStream;
  at: string;
  text: string;
}

export function normalize(input: readonly LogLineInput[]): Row[] {
  const rows: Row[] = [];
  for (const line of input) {
    const seq = Number(line.seq);
    if (!Number.isSafeInteger(seq) || seq < 1) continue;
    const stream = STREAMS.has(line.stream as LogStream) ? (line.stream as LogStream) : 'stdout';
    rows.push({ seq, stream, at: isoOf(Number(line.atMs)), text: String(line.text ?? '') });
  }
  rows.sort((a, b) => a.seq - b.seq);
  return rows;
}

export function firstNew(sorted: Row[], acked: number): number {
  for (const r of sorted) if (r.seq > acked) return r.seq;
  return acked;
}

export function toStored(r: {
  job_run_id: string;
  seq: number;
  stream: string;
  at: string;
  text: string;
  run_seq: number | null;
}): StoredLogLine {
  return {
    cursor: Number(r.run_seq ?? 0),
    job_run_id: r.job_run_id,
    seq: Number(r.seq),
    stream: (STREAMS.has(r.stream as LogStream) ? r.stream : 'stdout') as LogStream,
    at: r.at,
    text: r.text,
  };
}
