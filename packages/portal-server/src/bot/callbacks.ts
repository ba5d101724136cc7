// Outbound callbacks for bot requests (database-portal.md Events 1, Limits "callback attempts"): POST of the
// execution record, signed `X-Portal-Signature: v1=<hex HMAC-SHA256 of '<timestamp>.<body>'>` under
// CALLBACK_SIGNING_SECRET, with `X-Portal-Timestamp` (Unix seconds), `X-Portal-Event` and
// `X-Portal-Delivery: <id>:<attempt>`. Only HTTPS (certificates checked), no redirects followed, bounded
// time and response size. Retries are the caller's: a network failure or a 5xx is `retryable`.
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { hmacSha256Hex } from '@app/kit';

export const CALLBACK_EVENTS = ['execution.done', 'execution.failed', 'execution.rejected'] as const;
export type CallbackEvent = (typeof CALLBACK_EVENTS)[number];

export const CALLBACK_ATTEMPTS = 3;
const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/** `v1=<hex>` over `<timestamp>.<body>` — what a receiver recomputes to check a delivery. */
export function callbackSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${hmacSha256Hex(secret, `${timestamp}.${body}`)}`;
}

export interface DeliveryInput {
  url: string;
  body: string;
  event: CallbackEvent;
  deliveryId: string;
  attempt: number;
  secret: string;
  /** Extra trusted CA certificates (PEM), added to the system roots. Tests use a self-signed receiver. */
  ca?: string[];
  now?: () => Date;
  timeoutMs?: number;
}

export type DeliveryResult =
  | { ok: true; status: number }
  | { ok: false; retryable: boolean; status?: number; error: string };

/** One delivery attempt. Never throws: the answer says whether another attempt may help. */
export function deliverCallback(input: DeliveryInput): Promise<DeliveryResult> {
  const timestamp = String(Math.floor((input.now?.() ?? new Date()).getTime() / 1000));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(input.body)),
    'user-agent': 'database-portal-callbacks',
    'x-portal-signature': callbackSignature(input.secret, timestamp, input.body),
    'x-portal-timestamp': timestamp,
    'x-portal-event': input.event,
    'x-portal-delivery': `${input.deliveryId}:${input.attempt}`,
  };
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return Promise.resolve({ ok: false, retryable: false, error: 'invalid callback URL' });
  }
  if (url.protocol !== 'https:') {
    return Promise.resolve({ ok: false, retryable: false, error: 'callback URL is not https' });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: DeliveryResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        headers,
        ...(input.ca?.length ? { ca: [...rootCertificates, ...input.ca] } : {}),
        timeout: input.timeoutMs ?? TIMEOUT_MS,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        // The answer's body is not needed; read (and drop) a bounded amount so the socket can be reused.
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () => {
          if (status >= 200 && status < 300) finish({ ok: true, status });
          else finish({ ok: false, retryable: status >= 500, status, error: `receiver answered ${status}` });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('callback timed out')));
    req.on('error', (err) => finish({ ok: false, retryable: true, error: err.message }));
    req.end(input.body);
  });
}

/** Wait before attempt `n + 1` after attempt `n` failed: base, then 4 × base (1 s and 4 s by default). */
export function callbackBackoffMs(attempt: number, baseMs: number): number {
  return baseMs * 4 ** (attempt - 1);
}
