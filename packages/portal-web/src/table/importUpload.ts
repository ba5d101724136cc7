// The import's network side: the multipart body (the `options` JSON first, then the file, as the server
// reads it), the preview of a file's first part, and the import itself over XMLHttpRequest — the one browser
// API that reports upload progress and hands over a streamed answer as it arrives — reading the server's
// JSON lines (progress, then the outcome) while the rows are written.
import { ApiError, errorFromBody } from '../lib/api';
import type { ImportEvent, ImportPreview } from '../lib/types';

export type ImportFormat = 'csv' | 'jsonl' | 'sql';

export interface ImportOptions {
  connection: Record<string, unknown>;
  path: string[];
  format: ImportFormat;
  encoding: string;
  delimiter: string;
  quote: string;
  header: boolean;
  mapping?: Array<{ source: string; column: string }>;
  onError: 'skip' | 'stop';
}

/** Bytes of the file the preview sends: enough for its first rows, whatever the file's size. */
const PREVIEW_BYTES = 256 * 1024;

export function formatOf(fileName: string): ImportFormat {
  const n = fileName.toLowerCase();
  if (n.endsWith('.jsonl') || n.endsWith('.ndjson') || n.endsWith('.json')) return 'jsonl';
  if (n.endsWith('.sql')) return 'sql';
  return 'csv';
}

function form(options: ImportOptions & { limit?: number }, file: Blob, name: string): FormData {
  const f = new FormData();
  f.append('options', JSON.stringify(options));
  f.append('file', file, name);
  return f;
}

export async function previewImport(options: ImportOptions, file: File): Promise<ImportPreview> {
  // An SQL script is judged whole (the server refuses a script that is not an import into the table).
  const part = options.format === 'sql' ? file : file.slice(0, PREVIEW_BYTES);
  const res = await fetch('/api/db/import/preview', {
    method: 'POST',
    credentials: 'same-origin',
    body: form({ ...options, limit: 20 }, part, file.name),
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw errorFromBody(res.status, body);
  return body as unknown as ImportPreview;
}

export interface ImportWatch {
  /** Upload progress, 0..1. */
  uploaded(fraction: number): void;
  progress(event: ImportEvent): void;
}

/** Runs the import; resolves with the `done` event, rejects with an ApiError (refusals, `error` events). */
export function runImport(options: ImportOptions, file: File, watch: ImportWatch): Promise<ImportEvent> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/db/import');
    xhr.withCredentials = true;
    let read = 0;
    let last: ImportEvent | undefined;
    const drain = () => {
      if (xhr.status !== 200) return;
      const text = xhr.responseText;
      let nl = text.indexOf('\n', read);
      while (nl !== -1) {
        const line = text.slice(read, nl).trim();
        read = nl + 1;
        if (line) {
          const event = JSON.parse(line) as ImportEvent;
          last = event;
          watch.progress(event);
        }
        nl = text.indexOf('\n', read);
      }
    };
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) watch.uploaded(e.loaded / e.total);
    };
    xhr.onprogress = drain;
    xhr.onerror = () =>
      reject(new ApiError(0, 'The portal could not be reached. Check your network and try again.'));
    xhr.onload = () => {
      if (xhr.status !== 200) {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(xhr.responseText) as Record<string, unknown>;
        } catch {
          // not JSON: the status speaks
        }
        reject(errorFromBody(xhr.status, body));
        return;
      }
      drain();
      if (last?.type === 'done') resolve(last);
      else if (last?.type === 'error')
        reject(new ApiError(200, last.error ?? 'The import failed', last.code ?? undefined));
      else reject(new ApiError(200, 'The import ended without an outcome'));
    };
    xhr.send(form(options, file, file.name));
  });
}
