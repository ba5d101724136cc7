// The SCM layer on recorded payload shapes of GitHub, GitLab and Bitbucket Cloud: what each event means
// (branch, tag, pull request; commit; skip), how each host's signature is checked, delivery ids and header
// redaction. Pure: no server.
import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  deliveryKey,
  HOSTS,
  PayloadError,
  redactHeaders,
  verifyDelivery,
  wantsSkip,
} from '../../src/scm/index.js';
import { fixture, hubSignature } from './helpers.js';

const parse = (host: 'github' | 'gitlab' | 'bitbucket', event: string, file: string) =>
  HOSTS[host].parse(event, JSON.parse(fixture(file)));

describe('payload parsing', () => {
  it.each([
    [
      'github push',
      'github',
      'push',
      'github-push.json',
      [
        {
          kind: 'push',
          branch: 'main',
          gitRef: 'main',
          revision: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
        },
      ],
    ],
    [
      'github tag push (annotated: the commit, not the tag object)',
      'github',
      'push',
      'github-push-tag.json',
      [{ kind: 'tag', branch: null, gitRef: 'v1.2.0', revision: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c' }],
    ],
    [
      'github pull request opened',
      'github',
      'pull_request',
      'github-pull-request.json',
      [
        {
          kind: 'pull_request',
          branch: 'main',
          gitRef: 'refs/pull/2/head',
          revision: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
        },
      ],
    ],
    [
      'gitlab push (head commit found among commits)',
      'gitlab',
      'Push Hook',
      'gitlab-push.json',
      [
        {
          kind: 'push',
          branch: 'main',
          gitRef: 'main',
          revision: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        },
      ],
    ],
    [
      'gitlab tag push',
      'gitlab',
      'Tag Push Hook',
      'gitlab-tag-push.json',
      [{ kind: 'tag', branch: null, gitRef: 'v1.0.0', revision: '82b3d5ae55f7080f1e6022629cdb57bfae7cccc7' }],
    ],
    [
      'gitlab merge request opened',
      'gitlab',
      'Merge Request Hook',
      'gitlab-merge-request.json',
      [
        {
          kind: 'pull_request',
          branch: 'main',
          gitRef: 'refs/merge-requests/1/head',
          revision: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        },
      ],
    ],
    [
      'bitbucket push with a branch, a tag and a deleted branch',
      'bitbucket',
      'repo:push',
      'bitbucket-push.json',
      [
        {
          kind: 'push',
          branch: 'main',
          gitRef: 'main',
          revision: '709d658dc5b6d6afcd46049c2f332ee3f515a67d',
        },
        {
          kind: 'tag',
          branch: null,
          gitRef: 'release-2024.03',
          revision: '709d658dc5b6d6afcd46049c2f332ee3f515a67d',
        },
      ],
    ],
    [
      'bitbucket pull request created',
      'bitbucket',
      'pullrequest:created',
      'bitbucket-pullrequest-created.json',
      [{ kind: 'pull_request', branch: 'main', gitRef: 'checkout-page', revision: 'ab12cd34ef56' }],
    ],
  ] as const)('%s', (_name, host, event, file, expected) => {
    const parsed = parse(host, event, file);
    expect(parsed.ignored).toBeNull();
    expect(parsed.changes).toEqual(expected.map((e) => expect.objectContaining(e)));
  });

  it('names the repository by every URL the payload gives', () => {
    expect(parse('github', 'push', 'github-push.json').repositoryUrls).toEqual(
      expect.arrayContaining(['https://github.com/acme/shop.git', 'git@github.com:acme/shop.git']),
    );
    expect(parse('gitlab', 'Push Hook', 'gitlab-push.json').repositoryUrls).toContain(
      'git@gitlab.example.com:acme/api.git',
    );
    expect(parse('bitbucket', 'repo:push', 'bitbucket-push.json').repositoryUrls).toContain(
      'https://bitbucket.org/acme/web',
    );
  });

  it('keeps the head commit message and author', () => {
    const [push] = parse('gitlab', 'Push Hook', 'gitlab-push.json').changes;
    expect(push.message).toBe('fixed readme');
    expect(push.author).toBe('GitLab dev user <gitlabdev@dv6700.(none)>');
  });

  it('ignores what starts nothing: ping, create, deleted branches, closed or edited pull requests', () => {
    expect(parse('github', 'ping', 'github-ping.json').ignored).toBe('ping');
    expect(parse('github', 'create', 'github-ping.json').ignored).toMatch(/create events/);
    const deleted = JSON.parse(fixture('github-push.json'));
    deleted.deleted = true;
    deleted.after = '0'.repeat(40);
    expect(HOSTS.github.parse('push', deleted).ignored).toMatch(/deleted/);
    const closed = JSON.parse(fixture('github-pull-request.json'));
    closed.action = 'closed';
    expect(HOSTS.github.parse('pull_request', closed).ignored).toMatch(/closed/);
    const mrUpdate = JSON.parse(fixture('gitlab-merge-request.json'));
    mrUpdate.object_attributes.action = 'update';
    expect(HOSTS.gitlab.parse('Merge Request Hook', mrUpdate).ignored).toMatch(/no new commits/);
    mrUpdate.object_attributes.oldrev = '95790bf891e76fee5e1747ab589903a6a1f80f22';
    expect(HOSTS.gitlab.parse('Merge Request Hook', mrUpdate).changes).toHaveLength(1);
  });

  it('refuses a payload that is not what its event says', () => {
    expect(() => HOSTS.github.parse('push', { zen: 'x' })).toThrow(PayloadError);
    expect(() => HOSTS.bitbucket.parse('repo:push', {})).toThrow(PayloadError);
    expect(() => decodeBody(Buffer.from('{nope'), 'application/json')).toThrow(PayloadError);
  });

  it('reads GitHub form-encoded deliveries', () => {
    const json = fixture('github-ping.json');
    const body = Buffer.from(`payload=${encodeURIComponent(json)}`);
    expect(decodeBody(body, 'application/x-www-form-urlencoded')).toEqual(JSON.parse(json));
  });
});

describe('[skip ci]', () => {
  it.each([
    ['Fix typo [skip ci]', true],
    ['[CI SKIP] docs', true],
    ['chore: bump\n\n[no ci]', true],
    ['skip ci', false],
    ['Fix the CI', false],
  ])('%j → %s', (message, skip) => expect(wantsSkip(message)).toBe(skip));
});

describe('signatures', () => {
  const body = Buffer.from(fixture('github-push.json'));
  it('GitHub: X-Hub-Signature-256 sha256=<hex>', () => {
    const good = { 'x-hub-signature-256': hubSignature('s3cret', body) };
    expect(verifyDelivery(HOSTS.github, good, body, 's3cret')).toBe(true);
    expect(verifyDelivery(HOSTS.github, good, body, 'other')).toBe(false);
    expect(verifyDelivery(HOSTS.github, good, Buffer.concat([body, Buffer.from(' ')]), 's3cret')).toBe(false);
    // The SHA-1 header GitHub also sends is not accepted on its own.
    expect(
      verifyDelivery(HOSTS.github, { 'x-hub-signature': hubSignature('s3cret', body) }, body, 's3cret'),
    ).toBe(false);
    expect(verifyDelivery(HOSTS.github, { 'x-hub-signature-256': 'sha256=zz' }, body, 's3cret')).toBe(false);
  });

  it('Bitbucket: X-Hub-Signature sha256=<hex>', () => {
    const good = { 'x-hub-signature': hubSignature('s3cret', body) };
    expect(verifyDelivery(HOSTS.bitbucket, good, body, 's3cret')).toBe(true);
    expect(verifyDelivery(HOSTS.bitbucket, good, body, 's3cret2')).toBe(false);
  });

  it('GitLab: X-Gitlab-Token equal to the secret', () => {
    expect(verifyDelivery(HOSTS.gitlab, { 'x-gitlab-token': 's3cret' }, body, 's3cret')).toBe(true);
    expect(verifyDelivery(HOSTS.gitlab, { 'x-gitlab-token': 's3cre' }, body, 's3cret')).toBe(false);
    expect(verifyDelivery(HOSTS.gitlab, {}, body, 's3cret')).toBe(false);
  });
});

describe('delivery ids and stored headers', () => {
  it('uses the host delivery header, else a digest of the body', () => {
    const raw = Buffer.from('{}');
    expect(deliveryKey(HOSTS.github, { 'x-github-delivery': 'abc' }, raw)).toEqual({ id: 'abc', key: 'abc' });
    expect(deliveryKey(HOSTS.gitlab, { 'x-gitlab-event-uuid': 'u-1' }, raw).key).toBe('u-1');
    expect(deliveryKey(HOSTS.bitbucket, { 'x-request-uuid': 'r-1', 'x-hook-uuid': 'h' }, raw).key).toBe(
      'r-1',
    );
    const digest = deliveryKey(HOSTS.bitbucket, { 'x-hook-uuid': 'h' }, raw);
    expect(digest.id).toBeNull();
    expect(digest.key).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('redacts signatures, tokens and cookies', () => {
    const out = redactHeaders({
      'x-hub-signature-256': 'sha256=abc',
      'x-hub-signature': 'sha256=abc',
      'x-gitlab-token': 'tok',
      authorization: 'Bearer x',
      cookie: 'a=b',
      'x-github-event': 'push',
    });
    expect(out).toEqual({
      'x-hub-signature-256': '[redacted]',
      'x-hub-signature': '[redacted]',
      'x-gitlab-token': '[redacted]',
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-github-event': 'push',
    });
  });
});
