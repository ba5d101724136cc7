// Every listener of run events is registered in server.ts's "Who hears run events" block: a module that
// knows RunEvents (events/run-events.ts) publishes to it or is handed its subscriber there, but never
// subscribes itself, so one place lists who reacts to a committed change.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
/** A listener added to an emitter: `x.on(`, `x.once(`, `x.addListener(`, `x.prependListener(`, … */
const SUBSCRIBE = /\.(?:on|once|addListener|prependListener|prependOnceListener)\(/g;

/** The modules that import the run events, with the subscribing calls each makes. */
function subscribers(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!/from '(?:\.\.?\/)+(?:events\/)?run-events\.js'/.test(text)) continue;
    out.set(relative(SRC, file), [...text.matchAll(SUBSCRIBE)].length);
  }
  return out;
}

describe('who hears run events', () => {
  const found = subscribers();

  it('finds the modules that know the run events, server.ts subscribing', () => {
    expect(found.size).toBeGreaterThan(5);
    expect(found.get('server.ts')).toBeGreaterThan(0);
  });

  it('subscribes only in server.ts', () => {
    const elsewhere = [...found].filter(([file, n]) => file !== 'server.ts' && n > 0).map(([file]) => file);
    expect(elsewhere).toEqual([]);
  });
});
