// The agent's log shipper against a stand-in of PushLogs that stores like the server does (contiguous seqs,
// answers the highest stored): a sparse line leaves at once and lines that keep coming gather for at most the
// linger period, the busy jobs' rounds starting on the same ticks (on a fake clock), batches of at most 2,000 lines, several in flight (also out of order),
// resend after failures without loss or duplicates, back-pressure past the high-water mark, and a bounded
// buffer whose overflow keeps the seqs contiguous.
import { DROPPED_NOTE, LogShipper, type ShippedLine } from '@app/ci-agent';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function store(failFirst = 0, jitterMs = 1) {
  const lines: ShippedLine[] = [];
  const batches: number[] = [];
  let failures = failFirst;
  let inFlight = 0;
  let maxInFlight = 0;
  const send = async (batch: ShippedLine[]) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, jitterMs > 1 ? Math.random() * jitterMs : 1));
    inFlight--;
    if (failures > 0) {
      failures--;
      throw new Error('unavailable');
    }
    batches.push(batch.length);
    for (const l of batch) if (Number(l.seq) === lines.length + 1) lines.push(l);
    return lines.length;
  };
  return { send, lines, batches, maxInFlight: () => maxInFlight };
}

const line = (seq: number, text = `line ${seq}`) => ({
  seq,
  stream: 'stdout' as const,
  text,
  at: new Date().toISOString(),
});

describe('log shipper', () => {
  it('ships every line once, in batches of at most 2,000, several in flight', async () => {
    const s = store();
    const shipper = new LogShipper(s.send);
    for (let i = 1; i <= 12_345; i++) shipper.push(line(i));
    await shipper.flush();
    expect(s.lines.map((l) => l.text)).toEqual(Array.from({ length: 12_345 }, (_, i) => `line ${i + 1}`));
    expect(Math.max(...s.batches)).toBeLessThanOrEqual(2_000);
    expect(s.maxInFlight()).toBeGreaterThan(1);
    expect(s.maxInFlight()).toBeLessThanOrEqual(4);
    expect(shipper.acknowledged).toBe(12_345);
  });

  it('loses nothing when batches in flight arrive out of order', async () => {
    const s = store(0, 15);
    const shipper = new LogShipper(s.send, { batchLines: 50 });
    for (let i = 1; i <= 3_000; i++) shipper.push(line(i));
    await shipper.flush();
    expect(s.lines.map((l) => Number(l.seq))).toEqual(Array.from({ length: 3_000 }, (_, i) => i + 1));
  });

  it('asks the job to pause past its high-water mark and lets it go on once shipped', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const s = store();
    const shipper = new LogShipper(
      async (batch) => {
        await gate;
        return s.send(batch);
      },
      { highWaterLines: 100, batchLines: 30 },
    );
    for (let i = 1; i <= 99; i++) shipper.push(line(i));
    expect(shipper.pressure()).toBeUndefined();
    shipper.push(line(100));
    const paused = shipper.pressure();
    expect(paused).toBeInstanceOf(Promise);
    let resumed = false;
    void paused?.then(() => {
      resumed = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(resumed).toBe(false);
    release();
    await shipper.flush();
    expect(resumed).toBe(true);
    expect(shipper.pressure()).toBeUndefined();
    expect(s.lines).toHaveLength(100);
  });

  describe('when it sends (fake clock: what leaves at which moment, never a real wait)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
      // On a tick of the shipper's shared clock (a multiple of 25 ms and of 60 s).
      vi.setSystemTime(1_700_000_040_000);
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A PushLogs stand-in whose answers the test releases one by one. */
    function heldStore() {
      const sent: number[][] = [];
      const answers: (() => void)[] = [];
      const send = (batch: ShippedLine[]) => {
        sent.push(batch.map((l) => Number(l.seq)));
        return new Promise<number>((resolve) =>
          answers.push(() => resolve(Number(batch[batch.length - 1].seq))),
        );
      };
      const answer = () => answers.shift()?.();
      return { send, sent, answer };
    }

    it('sends a line written after a quiet spell at once, with the rest of its chunk', async () => {
      const s = heldStore();
      const shipper = new LogShipper(s.send);
      shipper.push(line(1));
      shipper.push(line(2));
      expect(s.sent).toEqual([]);
      // The next turn of the event loop, with no time passing.
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent).toEqual([[1, 2]]);
      s.answer();
      await vi.advanceTimersByTimeAsync(0);
      expect(shipper.acknowledged).toBe(2);

      // A minute of silence later, a single line leaves just as promptly.
      await vi.advanceTimersByTimeAsync(60_000);
      shipper.push(line(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent).toEqual([[1, 2], [3]]);
    });

    it('gathers the lines that keep coming into one batch per linger period', async () => {
      const s = heldStore();
      const shipper = new LogShipper(s.send, { lingerMs: 25 });
      shipper.push(line(1));
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent).toEqual([[1]]);
      // A line every 2 ms while the first batch is in flight and after it was answered.
      for (let seq = 2; seq <= 6; seq++) {
        shipper.push(line(seq));
        await vi.advanceTimersByTimeAsync(2);
        if (seq === 3) s.answer();
      }
      // 10 ms after the first round began: the lines wait for company.
      expect(s.sent).toEqual([[1]]);
      await vi.advanceTimersByTimeAsync(14);
      expect(s.sent).toEqual([[1]]);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.sent).toEqual([[1], [2, 3, 4, 5, 6]]);
      s.answer();
      await shipper.flush();
      expect(shipper.acknowledged).toBe(6);
    });

    it("starts the rounds of every busy job on the same ticks, whatever each job's phase", async () => {
      const s = heldStore();
      const one = new LogShipper(s.send, { lingerMs: 25 });
      const two = new LogShipper(s.send, { lingerMs: 25 });
      // Job one starts printing on a tick, job two 7 ms later: each first line leaves at once.
      one.push(line(1));
      await vi.advanceTimersByTimeAsync(7);
      two.push(line(1, 'two 1'));
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent).toEqual([[1], [1]]);
      s.answer();
      s.answer();
      // Both keep printing, each on its own phase (one at ticks + 9, 18; two at + 11, 20).
      await vi.advanceTimersByTimeAsync(2);
      one.push(line(2));
      await vi.advanceTimersByTimeAsync(2);
      two.push(line(2, 'two 2'));
      await vi.advanceTimersByTimeAsync(7);
      one.push(line(3));
      await vi.advanceTimersByTimeAsync(2);
      two.push(line(3, 'two 3'));
      // Until the next tick (25 ms after job one's first round, 18 after job two's) nothing leaves…
      await vi.advanceTimersByTimeAsync(4);
      expect(s.sent).toHaveLength(2);
      // …and on it both rounds leave together, in the same turn.
      await vi.advanceTimersByTimeAsync(1);
      expect(s.sent).toEqual([[1], [1], [2, 3], [2, 3]]);
      s.answer();
      s.answer();
      await Promise.all([one.flush(), two.flush()]);
      expect([one.acknowledged, two.acknowledged]).toEqual([3, 3]);
    });

    it('does not linger when a full batch is waiting, nor when flushed', async () => {
      const s = heldStore();
      const shipper = new LogShipper(s.send, { lingerMs: 60_000, batchLines: 10 });
      shipper.push(line(1));
      await vi.advanceTimersByTimeAsync(0);
      s.answer();
      for (let seq = 2; seq <= 11; seq++) shipper.push(line(seq));
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent).toEqual([[1], [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]);
      s.answer();
      shipper.push(line(12));
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent).toHaveLength(2);
      const flushed = shipper.flush();
      await vi.advanceTimersByTimeAsync(0);
      expect(s.sent.at(-1)).toEqual([12]);
      s.answer();
      await flushed;
      expect(shipper.acknowledged).toBe(12);
    });
  });

  it('resends after failures without losing or repeating a line', async () => {
    const s = store(3);
    const errors: unknown[] = [];
    const shipper = new LogShipper(s.send, { onError: (e) => errors.push(e) });
    for (let i = 1; i <= 250; i++) shipper.push(line(i));
    await shipper.flush();
    expect(errors).toHaveLength(3);
    expect(s.lines.map((l) => Number(l.seq))).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
  });

  it('drops texts past its bound but keeps the seqs contiguous, saying so once', async () => {
    const s = store(1);
    const shipper = new LogShipper(s.send, { maxLines: 10, onError: () => undefined });
    for (let i = 1; i <= 30; i++) shipper.push(line(i));
    await shipper.flush();
    expect(s.lines.map((l) => Number(l.seq))).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(s.lines.slice(0, 10).map((l) => l.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `line ${i + 1}`),
    );
    expect(s.lines[10].text).toBe(DROPPED_NOTE);
    expect(s.lines.slice(11).every((l) => l.text === '')).toBe(true);
  });
});
