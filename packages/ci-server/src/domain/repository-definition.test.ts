// A repository's definition: gocdnext's folder files and our bundle file assembled into one bundle, the bundle
// file bound to its project, and every problem named with its file.
import { describe, expect, it } from 'vitest';
import { formatBundleError } from './bundle-parse.js';
import { assembleRepositoryDefinition, BUNDLE_FILE, isBundleFile } from './repository-definition.js';

const PROJECT = { slug: 'shop', name: 'Shop' };
const folderFile = (stage: string) =>
  `stages: [${stage}]\njobs:\n  j:\n    stage: ${stage}\n    script: [make]\n`;
const bundleFile = (slug: string, ...names: string[]) =>
  `project:\n  slug: ${slug}\n  name: Shop\npipelines:\n${names
    .map(
      (n) =>
        `  - name: ${n}\n    stages: [s]\n    jobs:\n      j:\n        stage: s\n        script: [echo ${n}]\n`,
    )
    .join('')}`;

const namesOf = (files: { name: string; text: string }[]) => {
  const r = assembleRepositoryDefinition(PROJECT, files);
  if (!r.ok) return { errors: r.errors.map(formatBundleError) };
  return { pipelines: r.bundle.pipelines.map((p) => p.document.name).sort() };
};

describe('a repository definition', () => {
  it.each([
    ['the bundle file at the root', 'ci-bundle.yaml', true],
    ['the bundle file as the binding path', 'ci/ci-bundle.yaml', true],
    ['a gocdnext pipeline file', '.gocdnext/build.yaml', false],
    ['a name that only ends like it', '.gocdnext/my-ci-bundle.yaml', false],
  ])('%s: %s is a bundle file: %s', (_, name, expected) => {
    expect(isBundleFile(name)).toBe(expected);
  });

  it('assembles the folder files and the bundle file side by side', () => {
    expect(
      namesOf([
        { name: '.gocdnext/build.yaml', text: folderFile('build') },
        { name: BUNDLE_FILE, text: bundleFile('shop', 'deploy', 'nightly') },
      ]),
    ).toEqual({ pipelines: ['build', 'deploy', 'nightly'] });
  });

  it('applies a bundle file alone', () => {
    expect(namesOf([{ name: BUNDLE_FILE, text: bundleFile('shop', 'only') }])).toEqual({
      pipelines: ['only'],
    });
  });

  it('refuses a bundle file that declares another project, naming the file and the slug', () => {
    const out = namesOf([{ name: BUNDLE_FILE, text: bundleFile('other', 'deploy') }]);
    expect(out.errors?.join('\n')).toMatch(/project\.slug: ci-bundle\.yaml declares project "other".*"shop"/);
  });

  it('refuses a pipeline named in both places', () => {
    const out = namesOf([
      { name: '.gocdnext/deploy.yaml', text: folderFile('deploy') },
      { name: BUNDLE_FILE, text: bundleFile('shop', 'deploy') },
    ]);
    expect(out.errors?.join('\n')).toMatch(/deploy/);
    expect(out.pipelines).toBeUndefined();
  });

  it('names the bundle file in a parse error of it', () => {
    const out = namesOf([{ name: BUNDLE_FILE, text: 'project: {slug: shop, name: Shop}\npipelines: [' }]);
    expect(out.errors?.join('\n')).toMatch(/ci-bundle\.yaml/);
  });
});
