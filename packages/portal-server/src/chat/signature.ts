// Verifies a chat interaction (database-portal.md "Chat interaction callback"): `X-Slack-Signature:
// v0=<hex HMAC-SHA256 of 'v0:<timestamp>:<raw body>'>` under CHAT_SIGNING_SECRET, with
// `X-Slack-Request-Timestamp` no more than five minutes from the server clock, and each signature accepted
// once (a captured request replayed inside the window is refused). Pure apart from the replay memory.
import { hmacSha256Hex, safeEqual } from '@app/kit';

export const SIGNATURE_WINDOW_SECONDS = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export function chatSignature(secret: string, timestamp: string, rawBody: string): string {
  return `v0=${hmacSha256Hex(secret, `v0:${timestamp}:${rawBody}`)}`;
}

export class ChatSignatureVerifier {
  /** Signatures seen, with the timestamp that makes them expire from the window. Bounded. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly secret: string | undefined,
    private readonly now: () => number = Date.now,
    private readonly maxRemembered = 100_000,
  ) {}

  verify(timestampHeader: unknown, signatureHeader: unknown, rawBody: string): SignatureCheck {
    if (!this.secret) return { ok: false, reason: 'chat signing secret not configured' };
    if (typeof timestampHeader !== 'string' || !/^\d{1,12}$/.test(timestampHeader)) {
      return { ok: false, reason: 'missing or malformed X-Slack-Request-Timestamp' };
    }
    if (typeof signatureHeader !== 'string' || !/^v0=[0-9a-f]{64}$/i.test(signatureHeader)) {
      return { ok: false, reason: 'missing or malformed X-Slack-Signature' };
    }
    const ts = Number(timestampHeader);
    const nowSeconds = Math.floor(this.now() / 1000);
    if (Math.abs(nowSeconds - ts) > SIGNATURE_WINDOW_SECONDS) {
      return { ok: false, reason: 'timestamp outside the five-minute window' };
    }
    const expected = chatSignature(this.secret, timestampHeader, rawBody);
    if (!safeEqual(expected, signatureHeader.toLowerCase()))
      return { ok: false, reason: 'signature mismatch' };
    this.forget(nowSeconds);
    const key = signatureHeader.toLowerCase();
    if (this.seen.has(key)) return { ok: false, reason: 'replayed request' };
    this.seen.set(key, ts);
    return { ok: true };
  }

  private forget(nowSeconds: number): void {
    for (const [key, ts] of this.seen) {
      if (nowSeconds - ts > SIGNATURE_WINDOW_SECONDS || this.seen.size >= this.maxRemembered) {
        this.seen.delete(key);
      } else if (this.seen.size < this.maxRemembered) {
        // Entries are in arrival order, roughly timestamp order; stop at the first one still in the window.
        break;
      }
    }
  }
}
