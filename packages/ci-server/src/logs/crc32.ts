// CRC-32 (the gzip/zip polynomial) and the combination of two CRCs without their bytes, after zlib's
// crc32.c. A shared gzip chunk of a log batch (sse-gzip.ts) is compressed and checksummed once; each
// follower's gzip trailer needs the CRC of exactly the bytes that follower received, so the CRCs of its
// chunks are combined: `crc32Combine(a, b, lenB)` is the CRC of A followed by B. Node 20 has no zlib.crc32.
// A chunk's combination operator (x^(8·len) mod P) is computed once (`crc32Shift`), so a follower's
// combination costs one 32-step multiplication, not a log-length chain of them.

/** The reflected polynomial x^32 + x^26 + … + 1. */
const POLY = 0xedb88320;

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLY ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** The CRC-32 of `bytes`, continuing from `crc` (the CRC of what came before; 0 for nothing). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** a·b modulo the polynomial, both in reflected bit order (zlib's multmodp). */
function multmodp(a: number, b: number): number {
  if (a === 0) return 0;
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^n) modulo the polynomial, n = 0..31 (zlib's x2n_table). */
const X2N = (() => {
  const t = new Uint32Array(32);
  let p = 0x40000000; // x^1
  t[0] = p;
  for (let n = 1; n < 32; n++) {
    p = multmodp(p, p);
    t[n] = p;
  }
  return t;
})();

/** The operator that shifts a CRC past `length` bytes: x^(8·length) modulo the polynomial. */
export function crc32Shift(length: number): number {
  let p = 0x80000000; // x^0
  let k = 3; // 8 bits a byte: x^(2^3) per byte
  for (let n = length; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multmodp(X2N[k & 31], p);
  return p;
}

/** The CRC of A followed by B, from crcA, crcB and a shift operator made by `crc32Shift(length of B)`. */
export function crc32CombineShifted(crcA: number, crcB: number, shiftB: number): number {
  return (multmodp(shiftB, crcA) ^ crcB) >>> 0;
}

/** The CRC of A followed by B, from their CRCs and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return crc32CombineShifted(crcA, crcB, crc32Shift(lengthB));
}
