import { describe, expect, it } from 'vitest';
import {
  createSecretBox,
  hashToken,
  hmacSha256Hex,
  hmacVerifyHex,
  randomHex,
  randomToken,
  SecretBoxError,
  safeEqual,
} from '../src/crypto.js';

describe('secret box', () => {
  const key = randomHex(32);
  const box = createSecretBox(key);

  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('hunter2');
    const b = box.seal('hunter2');
    expect(a).not.toEqual(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(box.open(a)).toBe('hunter2');
    expect(box.open(box.seal(''))).toBe('');
  });

  it.each([
    ['ciphertext', 3],
    ['tag', 2],
    ['iv', 1],
  ])('detects a changed %s', (_name, index) => {
    const parts = box.seal('secret value').split('.');
    const bytes = Buffer.from(parts[index], 'base64url');
    bytes[0] ^= 1;
    parts[index] = bytes.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
  });

  it('refuses another key, other associated data and unknown versions', () => {
    const sealed = box.seal('x', 'project:a');
    expect(() => createSecretBox(randomHex(32)).open(sealed, 'project:a')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'project:b')).toThrow(SecretBoxError);
    expect(() => box.open(sealed.replace(/^v1/, 'v9'))).toThrow(/version/);
  });

  it('rejects keys that are not 32 bytes of hex', () => {
    expect(() => createSecretBox('abcd')).toThrow(/64 hexadecimal/);
  });
});

describe('tokens and HMAC', () => {
  it('hashes tokens with SHA-256', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('makes prefixed random tokens', () => {
    const t = randomToken('ci_', 32);
    expect(t).toMatch(/^ci_[A-Za-z0-9_-]{43}$/);
    expect(randomToken('ci_')).not.toBe(t);
  });

  it('verifies a signature and rejects a changed byte of body or signature', () => {
    const body = Buffer.from('{"ref":"refs/heads/main"}');
    const sig = hmacSha256Hex('s3cret', body);
    expect(hmacVerifyHex('s3cret', body, sig)).toBe(true);
    expect(hmacVerifyHex('s3cret', body, sig.toUpperCase())).toBe(true);
    const changed = Buffer.from(body);
    changed[3] ^= 1;
    expect(hmacVerifyHex('s3cret', changed, sig)).toBe(false);
    const badSig = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
    expect(hmacVerifyHex('s3cret', body, badSig)).toBe(false);
    expect(hmacVerifyHex('other', body, sig)).toBe(false);
    expect(hmacVerifyHex('s3cret', body, '')).toBe(false);
  });

  it('compares strings in constant time semantics', () => {
    expect(safeEqual('a', 'a')).toBe(true);
    expect(safeEqual('a', 'b')).toBe(false);
    expect(safeEqual('a', 'aa')).toBe(false);
  });
});
