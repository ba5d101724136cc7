// Crypto helpers shared by both services: a versioned AES-256-GCM secret box, token hashing, HMAC
// signing with constant-time verification, and random token generation. No home-made primitives.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const BOX_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** Parses a 32-byte key given as 64 hex characters (or a Buffer). */
export function parseKey(key: string | Buffer): Buffer {
  const buf = typeof key === 'string' ? Buffer.from(key.trim(), 'hex') : key;
  if (buf.length !== 32 || (typeof key === 'string' && !/^[0-9a-fA-F]{64}$/.test(key.trim()))) {
    throw new SecretBoxError('secret key must be 32 bytes given as 64 hexadecimal characters');
  }
  return buf;
}

/** Derives a 32-byte key from a passphrase-like secret (e.g. a JWT secret) with a purpose label. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}\0${secret}`).digest();
}

export interface SecretBox {
  seal(plaintext: string, associatedData?: string): string;
  open(sealed: string, associatedData?: string): string;
}

/**
 * AES-256-GCM with a random 96-bit IV. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url parts), so a later
 * version can change the algorithm and still read old values. Any change to a part fails `open`.
 */
export function createSecretBox(key: string | Buffer): SecretBox {
  const k = parseKey(key);
  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      if (associatedData) cipher.setAAD(Buffer.from(associatedData));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [
        BOX_VERSION,
        iv.toString('base64url'),
        tag.toString('base64url'),
        ct.toString('base64url'),
      ].join('.');
    },
    open(sealed, associatedData) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== BOX_VERSION) {
        throw new SecretBoxError('sealed value has an unknown format or version');
      }
      const iv = Buffer.from(parts[1], 'base64url');
      const tag = Buffer.from(parts[2], 'base64url');
      const ct = Buffer.from(parts[3], 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new SecretBoxError('sealed value is malformed');
      try {
        const decipher = createDecipheriv('aes-256-gcm', k, iv);
        if (associatedData) decipher.setAAD(Buffer.from(associatedData));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('sealed value failed authentication (tampered or wrong key)');
      }
    },
  };
}

/** SHA-256 hex of a token: what is stored at rest instead of the token itself. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function hmacSha256Hex(secret: string | Buffer, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** Constant-time string comparison that does not leak length through early exit. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** Verifies a hex HMAC-SHA256 signature of `data` in constant time. */
export function hmacVerifyHex(secret: string | Buffer, data: string | Buffer, signatureHex: string): boolean {
  return safeEqual(hmacSha256Hex(secret, data), signatureHex.trim().toLowerCase());
}

/** A random token: `<prefix><base64url of `bytes` random bytes>`. */
export function randomToken(prefix = '', bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

export function randomHex(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}
