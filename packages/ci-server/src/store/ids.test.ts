// newId draws its random bits from a pool refilled 4 KiB at a time: across several refills every id is a
// well-formed UUIDv7 (version 7, RFC variant), all are distinct, and ids made in one process sort in the
// order they were made, within one millisecond and across.
import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('is a distinct, ordered UUIDv7 across pool refills', () => {
    const ids: string[] = [];
    // 3,000 ids in one millisecond, then 3,000 over later milliseconds: ~12 refills of the 512-id pool.
    for (let i = 0; i < 3_000; i++) ids.push(newId(1_700_000_000_000));
    for (let i = 0; i < 3_000; i++) ids.push(newId(1_700_000_000_001 + i));
    for (const id of ids) expect(id).toMatch(V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The random tail differs from id to id (not a stale or zeroed pool).
    expect(new Set(ids.map((id) => id.slice(-12))).size).toBe(ids.length);
  });
});
