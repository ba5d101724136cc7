// The gate on stored-lines notifications (replicas/notify-coalescer.ts), by counting and without a clock: a
// run announced after a quiet spell is sent in the same turn (after a microtask, no timer may run), runs
// announced while a round is in flight leave together, once each, when it ends, and a failed round does not
// stop the next.
import { describe, expect, it } from 'vitest';
import { NotifyCoalescer } from '../../src/replicas/notify-coalescer.js';

function heldSends(fail = false) {
  const rounds: string[][] = [];
  const answers: (() => void)[] = [];
  const send = (keys: string[]) => {
    rounds.push(keys);
    return new Promise<void>((resolve, reject) =>
      answers.push(() => (fail ? reject(new Error('database down')) : resolve())),
    );
  };
  return { send, rounds, answer: () => answers.shift()?.() };
}

/** Lets queued microtasks (and the promise chains they start) run; no timer or immediate is involved. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('stored-lines notifications', () => {
  it('go out at once after a quiet spell, with no timer', async () => {
    const s = heldSends();
    const gate = new NotifyCoalescer(s.send);
    gate.announce('run-1');
    await settle();
    expect(s.rounds).toEqual([['run-1']]);
    s.answer();
    await settle();
    // Idle again: the next one is just as prompt.
    gate.announce('run-2');
    await settle();
    expect(s.rounds).toEqual([['run-1'], ['run-2']]);
  });

  it('gather the runs announced while a round is in flight into one round, once each', async () => {
    const s = heldSends();
    const gate = new NotifyCoalescer(s.send);
    gate.announce('run-1');
    await settle();
    for (const run of ['run-1', 'run-2', 'run-1', 'run-3', 'run-2']) gate.announce(run);
    await settle();
    expect(s.rounds).toEqual([['run-1']]);
    s.answer();
    await settle();
    expect(s.rounds).toEqual([['run-1'], ['run-1', 'run-2', 'run-3']]);
    s.answer();
    await settle();
    expect(gate.stats).toEqual({ rounds: 2, announced: 6 });
  });

  it('carry on after a failed round', async () => {
    const s = heldSends(true);
    const gate = new NotifyCoalescer(s.send);
    gate.announce('run-1');
    await settle();
    gate.announce('run-2');
    s.answer();
    await settle();
    expect(s.rounds).toEqual([['run-1'], ['run-2']]);
  });
});
