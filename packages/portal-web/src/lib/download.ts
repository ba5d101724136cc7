// File downloads of `POST /api/db/export`: the body is fetched (the route needs a JSON body, so a plain link
// cannot do), then handed to the browser as a download under the server's file name.
import { apiRaw } from './api';

/** The file name of a `Content-Disposition: attachment; filename="…"` header (RFC 6266, both forms). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain ? plain[1].trim() : fallback;
}

export interface DownloadResult {
  fileName: string;
  rows: number | undefined;
}

export async function downloadExport(body: Record<string, unknown>): Promise<DownloadResult> {
  const res = await apiRaw('/api/db/export', body);
  const ext = res.headers.get('x-export-extension') ?? 'txt';
  const fileName = fileNameOf(res.headers.get('content-disposition'), `export.${ext}`);
  const rowsHeader = res.headers.get('x-export-rows');
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start reading the blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { fileName, rows: rowsHeader === null ? undefined : Number(rowsHeader) };
}
