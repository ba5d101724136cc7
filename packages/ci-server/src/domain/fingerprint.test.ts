// Material fingerprints: equivalent git URLs hash alike, different repositories do not.
import { describe, expect, it } from 'vitest';
import {
  cronFingerprint,
  gitFingerprint,
  normaliseBranch,
  normaliseGitUrl,
  upstreamFingerprint,
} from './fingerprint.js';

describe('normaliseGitUrl', () => {
  it.each([
    ['https://host/org/repo.git', 'host/org/repo'],
    ['https://host/org/repo', 'host/org/repo'],
    ['git@host:org/repo.git', 'host/org/repo'],
    ['ssh://git@host/org/repo', 'host/org/repo'],
    ['HTTPS://Host/org/repo/', 'host/org/repo'],
    ['https://user:token@HOST/org/repo.git/', 'host/org/repo'],
    ['https://host:443/org/repo', 'host/org/repo'],
    ['ssh://git@host:22/org/repo.git', 'host/org/repo'],
    ['http://host:80//org//repo', 'host/org/repo'],
    ['git://host/org/repo.git', 'host/org/repo'],
    ['http://127.0.0.1:8080/org/repo.git', '127.0.0.1:8080/org/repo'],
    ['https://host/Org/Repo', 'host/Org/Repo'],
    ['file:///srv/git/repo.git', 'file:/srv/git/repo.git'],
    ['file:///srv/git/../git/./repo.git/', 'file:/srv/git/repo.git'],
    ['file://localhost/srv/git/repo', 'file:/srv/git/repo'],
    ['/srv/git//repo/', 'file:/srv/git/repo'],
  ])('%s → %s', (url, expected) => {
    expect(normaliseGitUrl(url)).toBe(expected);
  });
});

describe('gitFingerprint', () => {
  const same = [
    'https://host/org/repo.git',
    'https://host/org/repo',
    'git@host:org/repo.git',
    'ssh://git@host/org/repo',
    'HTTPS://Host/org/repo/',
  ];
  it.each(same)('%s has the same fingerprint as the others', (url) => {
    expect(gitFingerprint(url, 'main')).toBe(gitFingerprint(same[0], 'main'));
  });

  it('is a sha256 hex string', () => {
    expect(gitFingerprint(same[0], 'main')).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['another branch', 'https://host/org/repo', 'dev'],
    ['another repo', 'https://host/org/other', 'main'],
    ['another host', 'https://other/org/repo', 'main'],
    ['another port', 'https://host:8443/org/repo', 'main'],
    ['case of the path', 'https://host/ORG/repo', 'main'],
  ])('differs for %s', (_name, url, branch) => {
    expect(gitFingerprint(url, branch)).not.toBe(gitFingerprint('https://host/org/repo', 'main'));
  });

  it('treats refs/heads/<branch> as <branch>', () => {
    expect(normaliseBranch('refs/heads/main')).toBe('main');
    expect(gitFingerprint('https://host/org/repo', 'refs/heads/main')).toBe(
      gitFingerprint('https://host/org/repo', 'main'),
    );
  });

  it('keeps file paths with and without .git apart', () => {
    expect(gitFingerprint('file:///srv/a.git', 'main')).not.toBe(gitFingerprint('file:///srv/a', 'main'));
    expect(gitFingerprint('file:///srv/a/', 'main')).toBe(gitFingerprint('/srv/a', 'main'));
  });
});

describe('other material fingerprints', () => {
  it('upstream: project, pipeline, stage and status all count', () => {
    const base = upstreamFingerprint('shop', 'build', 'test', 'success');
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(upstreamFingerprint('shop', 'build', 'test', 'failed')).not.toBe(base);
    expect(upstreamFingerprint('shop2', 'build', 'test', 'success')).not.toBe(base);
  });

  it('cron: whitespace does not count', () => {
    expect(cronFingerprint(' 0  3 * * * ')).toBe(cronFingerprint('0 3 * * *'));
    expect(cronFingerprint('0 4 * * *')).not.toBe(cronFingerprint('0 3 * * *'));
  });
});
