// Signed download links of artifacts: `HMAC-SHA256(key, "<artifact id>.<expiry unix seconds>")`, hex, with a
// key derived from the server's secret key for this one purpose. A link works without credentials until it
// expires (about 5 minutes); any change to the id, the expiry or the signature makes it invalid.
import { deriveKey, hmacSha256Hex, hmacVerifyHex } from '@app/kit';

export const DOWNLOAD_URL_LIFETIME_S = 300;

export type DownloadCheck = 'ok' | 'expired' | 'invalid';

export class DownloadSigner {
  private readonly key: Buffer;

  constructor(
    secretKey: string,
    private readonly lifetimeS = DOWNLOAD_URL_LIFETIME_S,
  ) {
    this.key = deriveKey(secretKey, 'ci-artifact-download-v1');
  }

  /** Query parameters of a link valid for the lifetime from `nowMs`. */
  sign(artifactId: string, nowMs = Date.now()): { expires: number; signature: string } {
    const expires = Math.floor(nowMs / 1000) + this.lifetimeS;
    return { expires, signature: hmacSha256Hex(this.key, `${artifactId.toLowerCase()}.${expires}`) };
  }

  /** The path and query of a signed link (the route prefixes the server's address). */
  path(artifactId: string, nowMs = Date.now()): string {
    const { expires, signature } = this.sign(artifactId, nowMs);
    return `/api/v1/artifacts/${artifactId}/download?expires=${expires}&signature=${signature}`;
  }

  verify(artifactId: string, expires: number, signature: string, nowMs = Date.now()): DownloadCheck {
    if (!/^[0-9a-fA-F]{64}$/.test(signature)) return 'invalid';
    // Verified before the expiry is looked at, so a forged expiry cannot tell "expired" from "invalid".
    if (!hmacVerifyHex(this.key, `${artifactId.toLowerCase()}.${expires}`, signature)) return 'invalid';
    if (expires * 1000 <= nowMs) return 'expired';
    // A link never lives longer than the lifetime, whatever its (signed) expiry says.
    if (expires * 1000 > nowMs + (this.lifetimeS + 60) * 1000) return 'invalid';
    return 'ok';
  }
}
