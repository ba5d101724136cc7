// The archived form of one job run's log: gzip of JSON lines, one `[cursor, seq, stream, at, text]` array per
// line in seq order. Keeping the run-wide cursor in the blob is what lets the SSE replay, `Last-Event-ID` and
// RunDetail read an archived job exactly as they read its rows.
import { gunzipSync } from 'node:zlib';
import type { LogStream, StoredLogLine } from './types.js';

export type ArchivedLine = [cursor: number, seq: number, stream: LogStream, at: string, text: string];

export function encodeLine(line: {
  run_seq: number | null;
  seq: number;
  stream: string;
  at: string;
  text: string;
}): string {
  return `${JSON.stringify([Number(line.run_seq ?? 0), Number(line.seq), line.stream, line.at, line.text])}\n`;
}

export function decodeArchive(jobRunId: string, gz: Buffer): StoredLogLine[] {
  const text = gunzipSync(gz).toString('utf8');
  const out: StoredLogLine[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      const [cursor, seq, stream, at, body] = JSON.parse(text.slice(start, end)) as ArchivedLine;
      out.push({ cursor, job_run_id: jobRunId, seq, stream, at, text: body });
    }
    start = end + 1;
  }
  return out;
}
