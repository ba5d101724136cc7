// Attacks on the cache path check (executor/cache.ts existingCachePaths), judged on disk: the checkout's real
// location is resolved once per entry list, so a checkout reached through a link must still keep links inside
// it and refuse a link (or a glob match) that leads out of it — the agent's identity or a host file would
// otherwise go into a cache the next job restores.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { existingCachePaths } from '../../src/executor/cache.js';
import { scratchDir } from './helpers.js';

describe('cache paths of a checkout reached through a link', () => {
  const setup = () => {
    const base = scratchDir('cache-paths-');
    const real = join(base, 'real-checkout');
    mkdirSync(join(real, 'deps'), { recursive: true });
    writeFileSync(join(real, 'deps', 'a.txt'), 'a');
    writeFileSync(join(base, 'host-secret'), 'secret');
    const checkout = join(base, 'checkout-link');
    symlinkSync(real, checkout);
    return { base, real, checkout };
  };

  it('keeps a link that stays inside the checkout', async () => {
    const { real, checkout } = setup();
    symlinkSync(join(real, 'deps'), join(real, 'deps-alias'));
    expect(await existingCachePaths(['deps', 'deps-alias'], checkout)).toEqual(['deps', 'deps-alias']);
  });

  it('refuses a named link and a glob match that lead out of it', async () => {
    const { base, real, checkout } = setup();
    symlinkSync(join(base, 'host-secret'), join(real, 'deps', 'leak.txt'));
    await expect(existingCachePaths(['deps/leak.txt'], checkout)).rejects.toThrow(
      /leads out of the checkout/,
    );
    await expect(existingCachePaths(['deps/*.txt'], checkout)).rejects.toThrow(/leads out of the checkout/);
  });

  it('caches nothing from a checkout that does not exist', async () => {
    expect(await existingCachePaths(['deps', 'deps/*'], join(scratchDir('cache-paths-'), 'gone'))).toEqual(
      [],
    );
  });
});
