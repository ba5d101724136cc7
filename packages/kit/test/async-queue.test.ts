// The async queue both ends of the CI agent session use: order, hand-over to a waiting consumer, close, and
// the optional bound (the agent drops messages beyond it while its stream is stuck).
import { describe, expect, it } from 'vitest';
import { AsyncQueue, createMasker, noMask } from '../src/index.js';

describe('AsyncQueue', () => {
  it('hands items over in order, to a waiting consumer too, and ends on close', async () => {
    const q = new AsyncQueue<number>();
    expect(q.push(1)).toBe(true);
    const it = q[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: 1, done: false });
    const waiting = it.next();
    q.push(2);
    expect(await waiting).toEqual({ value: 2, done: false });
    q.close();
    expect(q.closed).toBe(true);
    expect(q.push(3)).toBe(false);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('drops items beyond maxItems and says so', async () => {
    const q = new AsyncQueue<string>({ maxItems: 2 });
    expect([q.push('a'), q.push('b'), q.push('c')]).toEqual([true, true, false]);
    expect(q.size).toBe(2);
    const seen: string[] = [];
    q.close();
    for await (const item of q) seen.push(item);
    // Closed with items left: the consumer still reads what was queued, then ends.
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('createMasker', () => {
  it('masks every form of the values and is the identity without any', () => {
    const mask = createMasker(['s3cr3t-value']);
    expect(mask('token=s3cr3t-value and czNjcjN0LXZhbHVl')).toBe('token=*** and ***');
    expect(createMasker([])).toBe(noMask);
  });
});
