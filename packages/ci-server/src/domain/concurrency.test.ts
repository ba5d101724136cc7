// The `concurrency` key: both spellings read into one stored form, bad values named, groups checked across a
// bundle, and the create/release decisions as tables.
import { describe, expect, it } from 'vitest';
import { assembleBundle, formatBundleError } from './bundle-parse.js';
import { serializePipeline } from './bundle-serialize.js';
import { type ConcurrencySpec, decideOnCreate, decideRelease, type GroupRun } from './concurrency.js';

const files = (...texts: string[]) =>
  assembleBundle(
    { slug: 's', name: 's' },
    texts.map((text, i) => ({ name: `p${i}.yaml`, text })),
  );
const pipeline = (concurrency: string, name = 'ci') =>
  `name: ${name}\nconcurrency: ${concurrency}\nstages: [a]\njobs: {j: {stage: a, script: [x]}}`;

describe('reading concurrency', () => {
  const cases: [string, ConcurrencySpec | undefined][] = [
    ['parallel', undefined],
    ['serial', { mode: 'serial' }],
    ['cancel-superseded', { mode: 'cancel-superseded' }],
    ['{group: deploy}', { mode: 'serial', group: 'deploy' }],
    ['{group: deploy, mode: cancel-superseded}', { mode: 'cancel-superseded', group: 'deploy' }],
    ['{mode: serial}', { mode: 'serial' }],
    ['{mode: parallel}', undefined],
  ];
  it.each(cases)('concurrency: %s', (text, want) => {
    const r = files(pipeline(text));
    if (!r.ok) throw new Error(r.errors.map(formatBundleError).join('\n'));
    const doc = r.bundle.pipelines[0].document;
    expect(doc.concurrency).toEqual(want);
    // The reconstructed YAML reads back to the same rule.
    const again = files(serializePipeline(doc));
    expect(again.ok && again.bundle.pipelines[0].document.concurrency).toEqual(want);
  });

  const bad: [string, RegExp][] = [
    ['sequential', /concurrency: "sequential" must be one of parallel, serial, cancel-superseded/],
    ['{group: "a b"}', /concurrency\.group: .*letters, digits/],
    ['{group: x, mode: parallel}', /a group needs mode serial or cancel-superseded/],
    ['{group: x, when: y}', /concurrency\.when: unknown key "when"/],
  ];
  it.each(bad)('refuses concurrency: %s', (text, message) => {
    const r = files(pipeline(text));
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.errors.map(formatBundleError).join('\n')).toMatch(message);
  });

  it('refuses one group with two modes in a bundle, naming the other pipeline', () => {
    const r = files(
      pipeline('{group: deploy}', 'a'),
      pipeline('{group: deploy, mode: cancel-superseded}', 'b'),
    );
    expect(r.ok ? '' : r.errors.map(formatBundleError).join('\n')).toMatch(
      /concurrency: concurrency group "deploy" is serial in pipeline "a"/,
    );
    expect(files(pipeline('{group: deploy}', 'a'), pipeline('{group: deploy}', 'b')).ok).toBe(true);
  });
});

const run = (id: string, seq: number, waiting = false, gitRef: string | null = 'main'): GroupRun => ({
  id,
  seq,
  waiting,
  gitRef,
});

describe('decideOnCreate', () => {
  const cases: [string, ConcurrencySpec['mode'], GroupRun[], ReturnType<typeof decideOnCreate>][] = [
    ['serial, group idle: starts', 'serial', [], { start: true, waitFor: null, cancel: [] }],
    [
      'serial, one running: waits for it',
      'serial',
      [run('r1', 1)],
      { start: false, waitFor: 'r1', cancel: [] },
    ],
    [
      'serial, one running and one waiting: waits for the newest before it',
      'serial',
      [run('r2', 2, true), run('r1', 1)],
      { start: false, waitFor: 'r2', cancel: [] },
    ],
    [
      'cancel-superseded: cancels older runs of the same ref only',
      'cancel-superseded',
      [run('r1', 1), run('r2', 2, false, 'feature'), run('r3', 3, false, 'main')],
      { start: true, waitFor: null, cancel: ['r1', 'r3'] },
    ],
    [
      'cancel-superseded: a newer run (higher seq) is never canceled',
      'cancel-superseded',
      [run('r9', 9)],
      { start: true, waitFor: null, cancel: [] },
    ],
    [
      'cancel-superseded: a run without a ref is not the same ref',
      'cancel-superseded',
      [run('r1', 1, false, null), run('r2', 2)],
      { start: true, waitFor: null, cancel: ['r2'] },
    ],
  ];
  it.each(cases)('%s', (_name, mode, unfinished, want) => {
    expect(decideOnCreate(mode, { seq: 5, gitRef: 'main' }, unfinished)).toEqual(want);
  });
  it('no ref supersedes no ref', () => {
    expect(
      decideOnCreate('cancel-superseded', { seq: 5, gitRef: null }, [run('r1', 1, false, null)]),
    ).toEqual({
      start: true,
      waitFor: null,
      cancel: ['r1'],
    });
  });
});

describe('decideRelease', () => {
  const cases: [string, GroupRun[], ReturnType<typeof decideRelease>][] = [
    ['nothing left', [], { start: null, waitFor: [] }],
    [
      'the oldest waiting run starts',
      [run('r3', 3, true), run('r2', 2, true)],
      {
        start: 'r2',
        waitFor: [{ id: 'r3', waitFor: 'r2' }],
      },
    ],
    [
      'a started run still unfinished: nothing starts',
      [run('r1', 1), run('r2', 2, true)],
      {
        start: null,
        waitFor: [{ id: 'r2', waitFor: 'r1' }],
      },
    ],
    [
      'a waiting run canceled in the middle: the next waits for the one before it',
      [run('r1', 1), run('r4', 4, true), run('r2', 2, true)],
      {
        start: null,
        waitFor: [
          { id: 'r2', waitFor: 'r1' },
          { id: 'r4', waitFor: 'r2' },
        ],
      },
    ],
  ];
  it.each(cases)('%s', (_name, unfinished, want) => {
    expect(decideRelease(unfinished)).toEqual(want);
  });
});
