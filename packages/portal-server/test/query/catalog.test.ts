// The one Catalog wrapper (src/providers/catalog.ts): every catalog call runs through the engine's guard
// once (so a driver error is mapped and the deadline's signal reaches the call), and an engine without
// maintenance refuses it in its product's words.
import { describe, expect, it } from 'vitest';
import { type Catalog, guardedCatalog, noMaintenance } from '../../src/providers/catalog.js';
import { ProviderError } from '../../src/providers/errors.js';

function recordingCatalog(seen: Array<{ method: string; args: unknown[] }>): Catalog {
  const record =
    (method: string) =>
    async (...args: unknown[]) => {
      seen.push({ method, args });
      if (method === 'describe') throw new Error('driver exploded');
      return method as never;
    };
  return {
    profile: record('profile'),
    health: record('health'),
    monitoring: record('monitoring'),
    maintenance: record('maintenance'),
    listObjects: record('listObjects'),
    inventory: record('inventory'),
    counts: record('counts'),
    describe: record('describe'),
  };
}

describe('guardedCatalog', () => {
  it('runs each of the eight calls through the guard once, handing it the guard’s signal', async () => {
    const seen: Array<{ method: string; args: unknown[] }> = [];
    const signal = new AbortController().signal;
    let guarded = 0;
    const catalog = guardedCatalog(recordingCatalog(seen), async (work) => {
      guarded++;
      try {
        return await work(signal);
      } catch (err) {
        throw new ProviderError('query', `mapped: ${(err as Error).message}`);
      }
    });
    expect(await catalog.profile()).toBe('profile');
    expect(await catalog.health()).toBe('health');
    expect(await catalog.monitoring()).toBe('monitoring');
    expect(await catalog.maintenance('vacuum', 't')).toBe('maintenance');
    expect(await catalog.listObjects(['public'])).toBe('listObjects');
    expect(await catalog.inventory()).toBe('inventory');
    expect(await catalog.counts()).toBe('counts');
    await expect(catalog.describe(['public', 't'])).rejects.toMatchObject({
      kind: 'query',
      message: 'mapped: driver exploded',
    });
    expect(guarded).toBe(8);
    expect(seen.map((s) => s.method)).toEqual([
      'profile',
      'health',
      'monitoring',
      'maintenance',
      'listObjects',
      'inventory',
      'counts',
      'describe',
    ]);
    // Arguments pass unchanged, the signal last.
    expect(seen[3].args).toEqual(['vacuum', 't', signal]);
    expect(seen[4].args).toEqual([['public'], signal]);
    expect(seen[7].args).toEqual([['public', 't'], signal]);
  });

  it('noMaintenance refuses in the product’s words as unsupported', async () => {
    await expect(noMaintenance('Redis')('flush', undefined)).rejects.toMatchObject({
      message: 'Redis offers no maintenance operations here',
    });
  });
});
