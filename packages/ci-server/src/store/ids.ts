// Identifiers of stored rows: UUID version 7 (RFC 9562), time-ordered so that new rows land at the end of
// primary-key indexes and rows created in the same millisecond still sort in creation order within this
// process (a 12-bit counter fills `rand_a`, method 1 of RFC 9562 §6.2).
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;
/** Random bytes drawn 4 KiB at a time (a run creates dozens of ids at
 * once, and a call per id was a measurable share of creating one): 8 per id (`rand_b`), each used once. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** A new UUIDv7 string, lowercase. */
export function newId(now: number = Date.now()): string {
  let ms = now;
  if (ms <= lastMs) {
    ms = lastMs;
    sequence++;
    if (sequence > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond rather than lose the order.
      ms = lastMs + 1;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  if (poolOffset + 8 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.allocUnsafe(16);
  pool.copy(bytes, 8, poolOffset, poolOffset + 8);
  poolOffset += 8;
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Any RFC 4122/9562 UUID text, any version, either case (what path parameters must look like). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export function nowIso(): string {
  return new Date().toISOString();
}
