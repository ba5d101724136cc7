// gocdnext's `notifications`: what the parser stores and refuses, and how the state machine runs the
// notification stage after the run's own outcome (which they never change).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { describe, expect, it } from 'vitest';
import { assembleBundle, formatBundleError } from './bundle-parse.js';
import { jobOfRun, notifyIndex, notifyMatches } from './notifications.js';
import { play, type Step, show } from './run.fixture.js';
import type { RunStatus } from './run-types.js';

const parse = (text: string) => assembleBundle({ slug: 's', name: 's' }, [{ name: 'ci.yaml', text }]);
const errors = (text: string) => {
  const r = parse(text);
  return r.ok ? [] : r.errors.map(formatBundleError);
};
const JOBS = 'stages: [build]\njobs:\n  a: {stage: build, script: [x]}\n';

describe('notifications in the parser', () => {
  it('stores each entry with its trigger, plugin image, PLUGIN_* settings and secrets', () => {
    const r = parse(`${JOBS}notifications:
  - on: Failure
    uses: ghcr.io/klinux/gocdnext-plugin-slack@v1
    secrets: [SLACK_WEBHOOK]
    with: {webhook: "\${{ SLACK_WEBHOOK }}", channel: "#ci", theme-color: d13438}
  - {on: always, uses: gocdnext/discord@v2}
`);
    if (!r.ok) throw new Error(r.errors.map(formatBundleError).join('\n'));
    const doc = r.bundle.pipelines[0].document;
    expect(doc.notifications).toEqual([
      {
        on: 'failure',
        uses: 'ghcr.io/klinux/gocdnext-plugin-slack@v1',
        image: 'ghcr.io/klinux/gocdnext-plugin-slack:v1',
        variables: {
          PLUGIN_WEBHOOK: '${{ SLACK_WEBHOOK }}',
          PLUGIN_CHANNEL: '#ci',
          PLUGIN_THEME_COLOR: 'd13438',
        },
        secrets: ['SLACK_WEBHOOK'],
      },
      {
        on: 'always',
        uses: 'gocdnext/discord@v2',
        image: 'ghcr.io/klinux/gocdnext-plugin-discord:v2',
        variables: {},
        secrets: [],
      },
    ]);
    expect(r.bundle.secretReferences).toEqual(['SLACK_WEBHOOK']);
    expect(jobOfRun(doc, '_notify_0')).toMatchObject({
      stage: '_notifications',
      image: 'ghcr.io/klinux/gocdnext-plugin-slack:v1',
      secrets: ['SLACK_WEBHOOK'],
      retry: 0,
    });
    expect(jobOfRun(doc, '_notify_2')).toBeUndefined();
    expect(jobOfRun(doc, 'a')).toBe(doc.jobs.a);
  });

  it('leaves a document without notifications as it was (no key stored)', () => {
    const r = parse(JOBS);
    expect(r.ok && 'notifications' in r.bundle.pipelines[0].document).toBe(false);
  });

  it.each<[string, string, RegExp]>([
    [
      'an unknown trigger',
      '[{on: finished, uses: a@v1}]',
      /notifications\[0\]\.on: "finished" must be one of failure, success, always, canceled/,
    ],
    ['a missing uses', '[{on: failure}]', /notifications\[0\]\.uses: missing required key "uses"/],
    ['a missing on', '[{uses: a@v1}]', /notifications\[0\]\.on: missing required key "on"/],
    [
      'a bad plugin reference',
      '[{on: failure, uses: "a@"}]',
      /notifications\[0\]\.uses: "a@" is not a plugin reference/,
    ],
    [
      'an unknown key',
      '[{on: failure, uses: a@v1, script: [x]}]',
      /notifications\[0\]\.script: unknown key "script"/,
    ],
    ['a bad secret name', '[{on: failure, uses: a@v1, secrets: [1X]}]', /notifications\[0\]\.secrets\[0\]/],
    ['not a list', '{on: failure}', /notifications: must be a list of notifications/],
  ])('refuses %s, naming the key', (_, value, message) => {
    expect(errors(`${JOBS}notifications: ${value}\n`).join('\n')).toMatch(message);
  });

  it('refuses the reserved stage and job names only in a pipeline with notifications', () => {
    const reserved = 'stages: [_notifications]\njobs:\n  _notify_0: {stage: _notifications, script: [x]}\n';
    expect(errors(reserved)).toEqual([]);
    const both = errors(`${reserved}notifications: [{on: always, uses: a@v1}]\n`).join('\n');
    expect(both).toMatch(/stage "_notifications" is reserved/);
    expect(both).toMatch(/job name "_notify_0" is reserved/);
  });

  it('reads the index of a notification job name and nothing else', () => {
    expect([notifyIndex('_notify_0'), notifyIndex('_notify_12'), notifyIndex('_notify_01')]).toEqual([
      0,
      12,
      null,
    ]);
    expect(notifyIndex('notify_0')).toBeNull();
  });
});

describe('which outcomes fire which trigger (gocdnext: failed, canceled, success = neither)', () => {
  it.each<[RunStatus, boolean, boolean, boolean, boolean]>([
    // outcome, failure, success, always, canceled
    ['success', false, true, true, false],
    ['failed', true, false, true, false],
    ['canceled', false, false, true, true],
  ])('a run ending %s', (outcome, failure, success, always, canceled) => {
    expect(notifyMatches('failure', outcome)).toBe(failure);
    expect(notifyMatches('success', outcome)).toBe(success);
    expect(notifyMatches('always', outcome)).toBe(always);
    expect(notifyMatches('canceled', outcome)).toBe(canceled);
  });
});

const NOTIFYING = `stages: [build, test]
jobs:
  a: { stage: build, script: [x] }
  gate: { stage: build, approval: {}, needs: [a] }
  t: { stage: test, script: [x] }
notifications:
  - { on: failure, uses: fail@v1 }
  - { on: success, uses: ok@v1 }
  - { on: always, uses: any@v1 }
  - { on: canceled, uses: stop@v1 }
`;
const N = '_notify_0=%s _notify_1=%s _notify_2=%s _notify_3=%s';
const notes = (...s: string[]) => s.reduce((out, x) => out.replace('%s', x), N);
const passed: Step[] = [
  ['start'],
  ['finish', 'a', 'success'],
  ['approve', 'gate', 'ann'],
  ['finish', 't', 'success'],
];

describe('the notification stage in the state machine', () => {
  it.each<[string, Step[], string]>([
    [
      'waits, created, while the run goes on',
      [['start']],
      `running | build:running[a=queued gate=created] | test:created[t=created] | _notifications:created[${notes('created', 'created', 'created', 'created')}]`,
    ],
    [
      'a run that succeeded: success and always are released, the others skipped; the run is success',
      passed,
      `success | build:success[a=success gate=success] | test:success[t=success] | _notifications:running[${notes('skipped', 'queued', 'queued', 'skipped')}]`,
    ],
    [
      'a failed job: the later stage is skipped, failure and always are released; the run is failed',
      [['start'], ['finish', 'a', 'failed']],
      `failed | build:failed[a=failed gate=skipped] | test:skipped[t=skipped] | _notifications:running[${notes('queued', 'skipped', 'queued', 'skipped')}]`,
    ],
    [
      'a rejected gate fails the run the same way',
      [['start'], ['finish', 'a', 'success'], ['reject', 'gate', 'bob']],
      `failed | build:failed[a=success gate=failed] | test:skipped[t=skipped] | _notifications:running[${notes('queued', 'skipped', 'queued', 'skipped')}]`,
    ],
    [
      'a canceled run: canceled and always start even though the run was being canceled',
      [['start'], ['run', 'a'], ['cancel'], ['finish', 'a', 'canceled']],
      `canceled | build:canceled[a=canceled gate=canceled] | test:skipped[t=skipped] | _notifications:running[${notes('skipped', 'skipped', 'queued', 'queued')}]`,
    ],
    [
      'a failed notification job does not change the run: it stays success, the stage ends failed',
      [
        ...passed,
        ['run', '_notify_1'],
        ['finish', '_notify_1', 'failed'],
        ['finish', '_notify_2', 'success'],
      ],
      `success | build:success[a=success gate=success] | test:success[t=success] | _notifications:failed[${notes('skipped', 'failed', 'success', 'skipped')}]`,
    ],
    [
      'canceling a finished run cancels its active notification jobs and keeps its status',
      [...passed, ['run', '_notify_1'], ['cancel'], ['finish', '_notify_1', 'canceled']],
      `success | build:success[a=success gate=success] | test:success[t=success] | _notifications:canceled[${notes('skipped', 'canceled', 'canceled', 'skipped')}]`,
    ],
    [
      'rerunning a job of the run plans the notifications again, and they fire on the new outcome',
      [
        ['start'],
        ['finish', 'a', 'failed'],
        ['finish', '_notify_0', 'success'],
        ['finish', '_notify_2', 'success'],
        ['rerun', 'a'],
        ['finish', 'a', 'success'],
        ['approve', 'gate', 'ann'],
        ['finish', 't', 'success'],
      ],
      `success | build:success[a=success gate=success] | test:success[t=success] | _notifications:running[${notes('skipped', 'queued', 'queued', 'skipped')}]`,
    ],
  ])('%s', (_, steps, expected) => {
    expect(show(play(NOTIFYING, steps))).toBe(expected);
  });

  it('announces the run finished before it enqueues the notification jobs', () => {
    const run = play(NOTIFYING, passed);
    expect(run.effects.map((e) => e.kind)).toEqual(['stage-finished', 'run-finished', 'enqueue', 'enqueue']);
  });

  it('a run with nothing to notify about skips the stage at once', () => {
    const yaml =
      'stages: [b]\njobs:\n  a: {stage: b, script: [x]}\nnotifications: [{on: failure, uses: f@v1}]\n';
    expect(show(play(yaml, [['start'], ['finish', 'a', 'success']]))).toBe(
      'success | b:success[a=success] | _notifications:skipped[_notify_0=skipped]',
    );
  });

  it('refuses to rerun a notification job on its own', () => {
    expect(() =>
      play(NOTIFYING, [...passed, ['finish', '_notify_1', 'success'], ['rerun', '_notify_1']]),
    ).toThrow(/a notification job runs again when the run does/);
  });
});
