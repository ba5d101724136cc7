// gocdnext's approval.quorum_by_label: what the parser stores and refuses, and which quorum a gate gets from
// the labels of the pull request its run builds.
import { describe, expect, it } from 'vitest';
import { assembleBundle, formatBundleError } from './bundle-parse.js';
import type { ApprovalSpec } from './bundle-types.js';
import { gateQuorum } from './gate-quorum.js';
import { planRun } from './run-plan.js';

const parse = (approval: string) =>
  assembleBundle({ slug: 's', name: 's' }, [
    { name: 'ci.yaml', text: `stages: [ship]\njobs:\n  prod: {stage: ship, approval: ${approval}}\n` },
  ]);

describe('quorum_by_label in the parser', () => {
  it('stores the labels in lower case with their quorum', () => {
    const r = parse('{required: 2, quorum_by_label: {HotFix: 1, destructive: 3, "area/db": 2}}');
    if (!r.ok) throw new Error(r.errors.map(formatBundleError).join('\n'));
    expect(r.bundle.pipelines[0].document.jobs.prod.approval).toEqual({
      required: 2,
      quorum_by_label: { hotfix: 1, destructive: 3, 'area/db': 2 },
    });
  });

  it.each<[string, string, RegExp]>([
    [
      'a zero quorum',
      '{quorum_by_label: {hotfix: 0}}',
      /quorum_by_label\.hotfix: must be an integer from 1 to 100/,
    ],
    ['a label with a space', '{quorum_by_label: {"hot fix": 1}}', /"hot fix" is not a label name/],
    [
      'the same label in two cases',
      '{quorum_by_label: {Hotfix: 1, hotfix: 2}}',
      /label "hotfix" is listed twice/,
    ],
    ['not a mapping', '{quorum_by_label: [hotfix]}', /approval\.quorum_by_label: must be a mapping/],
    [
      'more than 16 labels',
      `{quorum_by_label: {${Array.from({ length: 17 }, (_, i) => `l${i}: 1`).join(', ')}}}`,
      /at most 16 labels \(found 17\)/,
    ],
  ])('refuses %s, naming the key', (_, approval, message) => {
    const r = parse(approval);
    expect(r.ok ? '' : r.errors.map(formatBundleError).join('\n')).toMatch(message);
  });
});

describe('the quorum of a gate', () => {
  const approval: ApprovalSpec = {
    required: 2,
    quorum_by_label: { hotfix: 1, destructive: 3, risky: 3, big: 4 },
  };
  it.each<[string, string[] | undefined, number]>([
    ['no labels (a push, a manual run)', undefined, 2],
    ['labels none of which the map names', ['docs', 'ci'], 2],
    ['a label lowering it', ['hotfix'], 1],
    ['a label raising it', ['docs', 'destructive'], 3],
    ['several: the largest wins', ['hotfix', 'destructive', 'big'], 4],
    ['a tie: the same number whichever label', ['risky', 'destructive'], 3],
  ])('%s', (_, labels, quorum) => {
    expect(
      gateQuorum(
        approval,
        labels ? { event: 'pull_request', branch: 'main', files: null, labels } : undefined,
      ),
    ).toBe(quorum);
  });

  it('without quorum_by_label a gate needs `required`, whatever the labels', () => {
    expect(
      gateQuorum({ required: 2 }, { event: 'pull_request', branch: 'main', files: null, labels: ['x'] }),
    ).toBe(2);
  });

  it('is fixed on the gate row when the run is planned', () => {
    const r = parse('{required: 2, quorum_by_label: {hotfix: 1}}');
    if (!r.ok) throw new Error('invalid');
    const doc = r.bundle.pipelines[0].document;
    let n = 0;
    const id = () => `j${++n}`;
    const gate = (labels?: string[]) =>
      planRun(doc, id, { event: 'pull_request', branch: 'main', files: null, ...(labels ? { labels } : {}) })
        .stages[0].jobs[0].requiredApprovals;
    expect([gate(['hotfix']), gate(['other']), gate()]).toEqual([1, 2, 2]);
  });
});
