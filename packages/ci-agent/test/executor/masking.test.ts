import { describe, expect, it } from 'vitest';
import { LineSplitter, MASK, Masker, secretForms } from '../../src/index.js';

const SECRET = 's3cr3t-Value/with+odd=chars';

describe('Masker', () => {
  const masker = new Masker([SECRET, 'abc']);

  it('replaces the value wherever it appears', () => {
    expect(masker.mask(`token=${SECRET}; again ${SECRET}`)).toBe(`token=${MASK}; again ${MASK}`);
  });

  it('does not mask values shorter than 4 characters', () => {
    expect(masker.mask('abc abcd')).toBe('abc abcd');
    expect(new Masker(['abc']).active).toBe(false);
  });

  it('masks standard and URL-safe base64 at every byte alignment, alone or inside longer text', () => {
    for (let prefix = 0; prefix < 6; prefix++) {
      for (let suffix = 0; suffix < 4; suffix++) {
        const plain = Buffer.from(`${'p'.repeat(prefix)}${SECRET}${'q'.repeat(suffix)}`);
        for (const enc of [plain.toString('base64'), plain.toString('base64url')]) {
          const masked = masker.mask(enc);
          expect(masked, `prefix ${prefix} suffix ${suffix} ${enc}`).toContain(MASK);
          // What is left cannot be decoded back into the secret.
          expect(Buffer.from(masked.replace(/\*/g, ''), 'base64').toString()).not.toContain(SECRET);
        }
      }
    }
  });

  it('masks URL-encoded forms (upper/lower hex, + for spaces)', () => {
    const m = new Masker(['pass word/€x']);
    const enc = encodeURIComponent('pass word/€x');
    expect(m.mask(`u?p=${enc}`)).toBe(`u?p=${MASK}`);
    expect(m.mask(`u?p=${enc.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`)).toBe(`u?p=${MASK}`);
    expect(m.mask(`u?p=${enc.replace(/%20/g, '+')}`)).toBe(`u?p=${MASK}`);
  });

  it('masks each line of a multi-line secret', () => {
    const m = new Masker(['-----BEGIN KEY-----\nAAAABBBBCCCC\n-----END KEY-----']);
    expect(m.mask('AAAABBBBCCCC')).toBe(MASK);
    expect(secretForms('ab\ncd')).toEqual([]);
  });

  it('chooses cuts that never split a secret', () => {
    const text = `${'x'.repeat(10)}${SECRET}${'y'.repeat(10)}`;
    const cut = masker.safeCut(text, 15);
    expect(cut).toBe(10);
    expect(masker.safeCut(text, 5)).toBe(5);
  });
});

describe('LineSplitter', () => {
  it('joins chunks into lines, strips CRLF and flushes the last line', () => {
    const out: string[] = [];
    const s = new LineSplitter((l) => out.push(l));
    s.push('one\r\ntw');
    s.push('o\n\nthr');
    s.push('ee');
    s.end();
    expect(out).toEqual(['one', 'two', '', 'three']);
  });

  it('splits over-long lines into bounded pieces', () => {
    const out: string[] = [];
    const s = new LineSplitter((l) => out.push(l), 10);
    s.push('a'.repeat(25));
    s.push('\nb\n');
    expect(out).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5), 'b']);
  });

  it('never cuts through a secret when splitting', () => {
    const m = new Masker([SECRET]);
    const out: string[] = [];
    const s = new LineSplitter(
      (l) => out.push(m.mask(l)),
      32,
      (t, limit) => m.safeCut(t, limit),
    );
    s.push(`${'z'.repeat(20)}${SECRET}${'z'.repeat(50)}\n`);
    expect(out.join('')).not.toContain(SECRET.slice(0, 8));
    expect(out.join('')).toContain(MASK);
    for (const piece of out) expect(piece.length).toBeLessThanOrEqual(32);
  });
});
