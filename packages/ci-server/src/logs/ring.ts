// The recent batches of a followed run (the hub's ring) and the proof that a list of batches holds every
// line after a cursor: what lets a follower that fell behind catch up from shared batches, not the store.
import { type LogBatch, suffixOf } from './sse-encoding.js';

/** The recent batches of one followed run, oldest first, bounded by lines and by encoded bytes. */
export class Ring {
  batches: LogBatch[] = [];
  private sizes: number[] = [];
  lines = 0;
  bytes = 0;

  add(batch: LogBatch, bytes: number, maxLines: number, maxBytes: number): void {
    this.batches.push(batch);
    this.sizes.push(bytes);
    this.lines += batch.length;
    this.bytes += bytes;
    let drop = 0;
    while ((this.lines > maxLines || this.bytes > maxBytes) && drop < this.batches.length - 1) {
      this.lines -= this.batches[drop].length;
      this.bytes -= this.sizes[drop];
      drop++;
    }
    if (drop > 0) {
      this.batches.splice(0, drop);
      this.sizes.splice(0, drop);
    }
  }
}

/**
 * The lines after `cursor` in `batches` as a chain of batches whose cursors follow each other without a
 * gap, starting at cursor + 1; undefined when the batches do not reach back to it or skip a cursor.
 * Batches wholly at or before the cursor are left out; the one that straddles it is cut (a new array).
 */
export function chainAfter(batches: readonly LogBatch[], cursor: number): LogBatch[] | undefined {
  const out: LogBatch[] = [];
  let expected = cursor + 1;
  let started = false;
  for (const batch of batches) {
    if (batch.length === 0) continue;
    const first = batch[0].cursor;
    const last = batch[batch.length - 1].cursor;
    if (last < expected) continue;
    if (!started && first > expected) return undefined;
    if (first === expected && last - first === batch.length - 1) out.push(batch);
    else {
      // Straddles the cursor, or is not dense inside: keep its lines that continue the chain, if all do
      // (a suffix of the batch, whose bytes are a view of the batch's encoding, not a second one).
      const from = batch.findIndex((l) => l.cursor >= expected);
      const rest = suffixOf(batch, from);
      for (let i = 0; i < rest.length; i++) if (rest[i].cursor !== expected + i) return undefined;
      out.push(rest);
    }
    started = true;
    expected = out[out.length - 1][out[out.length - 1].length - 1].cursor + 1;
  }
  return out;
}
