// The agent's log shipper against a stand-in of PushLogs that stores like the server does (contiguous seqs,
// answers the highest stored): batches of at most 2,000 lines, several in flight (also arriving out of order),
// resend after failures without loss or duplicates, back-pressure past the high-water mark, and a bounded
// buffer whose overflow keeps the seqs contiguous.
import { DROPPED_NOTE, LogShipper, type ShippedLine } from '@app/ci-agent';
import { describe, expect, it } from 'vitest';

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

  it('sends a short batch after the delay without waiting for a full batch', async () => {
    const s = store();
    const shipper = new LogShipper(s.send, { batchDelayMs: 20 });
    shipper.push(line(1));
    shipper.push(line(2));
    await new Promise((r) => setTimeout(r, 200));
    expect(s.lines).toHaveLength(2);
    expect(s.batches).toEqual([2]);
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
