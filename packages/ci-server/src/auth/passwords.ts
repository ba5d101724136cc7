// Password hashing with Node's scrypt (memory-hard, no native add-on). Stored form:
// `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`, so the cost can be raised later and old hashes still
// verify. Verification is constant-time; an unknown user is checked against a dummy hash so timing does not
// reveal which usernames exist.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const N = 1 << 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** scrypt needs 128·N·r bytes; leave headroom. */
const MAX_MEM = 64 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 12;
/** Bounds the work an attacker can make scrypt do per request. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: MAX_MEM };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || n > 1 << 20) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(password, salt, n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/** Spends the same time as a real verification, for unknown users and users without a password. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}

/** A generated password for the bootstrap administrator: 24 URL-safe characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
