// The pure parts of commit statuses, table-driven: run status → each host's state, which causes report, the
// repository path a material URL names, the stored configuration read leniently, and the request each host
// module builds (path, auth header, body fields).
import { describe, expect, it } from 'vitest';
import {
  forgeStateOf,
  HOST_STATE,
  parseForgeStatusConfig,
  reportsCause,
  repositoryPath,
  validRepository,
} from '../../src/domain/forge-status.js';
import { bitbucketKey, bitbucketStatusRequest } from '../../src/notifications/forge-status/bitbucket.js';
import { githubStatusRequest } from '../../src/notifications/forge-status/github.js';
import { gitlabStatusRequest } from '../../src/notifications/forge-status/gitlab.js';
import type { StatusInput } from '../../src/notifications/forge-status/request.js';

const SHA = 'a'.repeat(40);

describe('states', () => {
  it.each([
    ['queued', 'pending', 'pending', 'INPROGRESS'],
    ['running', 'pending', 'running', 'INPROGRESS'],
    ['success', 'success', 'success', 'SUCCESSFUL'],
    ['failed', 'failure', 'failed', 'FAILED'],
    ['canceled', 'error', 'canceled', 'STOPPED'],
  ])('%s → GitHub %s, GitLab %s, Bitbucket %s', (status, github, gitlab, bitbucket) => {
    const state = forgeStateOf(status)!;
    expect([HOST_STATE.github[state], HOST_STATE.gitlab[state], HOST_STATE.bitbucket[state]]).toEqual([
      github,
      gitlab,
      bitbucket,
    ]);
  });
  it('has no state for an unknown status', () => expect(forgeStateOf('awaiting')).toBeNull());
});

describe('which runs report', () => {
  it.each([
    ['webhook', SHA, true],
    ['poll', SHA, true],
    ['webhook', 'ab12cd34ef56', true],
    ['webhook', 'main', false],
    ['webhook', null, false],
    ['manual', SHA, false],
    ['cron', SHA, false],
    ['upstream', SHA, false],
    ['rerun', SHA, false],
  ])('%s at %s → %s', (cause, revision, reports) => expect(reportsCause(cause, revision)).toBe(reports));
});

describe('repository paths', () => {
  it.each([
    ['https://github.com/acme/shop.git', 'github', 'acme/shop'],
    ['git@github.com:acme/shop.git', 'github', 'acme/shop'],
    ['https://GitHub.com/acme/shop/', 'github', 'acme/shop'],
    ['https://gitlab.example.com/group/sub/api.git', 'gitlab', 'group/sub/api'],
    ['https://gitlab.example.com/group/sub/api.git', 'github', null],
    ['git@bitbucket.org:acme/web.git', 'bitbucket', 'acme/web'],
    ['/srv/git/shop', 'github', null],
    ['file:///srv/git/shop', 'github', null],
    ['https://github.com/acme', 'github', null],
  ] as const)('%s on %s → %s', (url, host, path) => expect(repositoryPath(url, host)).toBe(path));

  it.each([
    ['acme/shop', 'github', true],
    ['acme', 'github', false],
    ['a/b/c', 'github', false],
    ['a/b/c', 'gitlab', true],
    ['acme/../x', 'github', false],
    ['acme/sh op', 'bitbucket', false],
  ] as const)('%s valid on %s: %s', (text, host, ok) => expect(validRepository(text, host)).toBe(ok));
});

describe('stored configuration', () => {
  it('reads leniently and refuses an unknown host', () => {
    expect(parseForgeStatusConfig(undefined)).toBeNull();
    expect(parseForgeStatusConfig('{')).toBeNull();
    expect(parseForgeStatusConfig('{"host":"svn"}')).toBeNull();
    expect(parseForgeStatusConfig('{"host":"gitlab","api_url":""}')).toEqual({
      host: 'gitlab',
      api_url: null,
      repository: null,
      username: null,
      context_prefix: 'ci/gocdnext',
    });
  });
});

const input = (over: Partial<StatusInput> = {}): StatusInput => ({
  apiUrl: 'https://api.example.test',
  repository: 'acme/shop',
  sha: SHA,
  state: 'success',
  description: 'Run #3 succeeded',
  context: 'ci/gocdnext/shop/build',
  targetUrl: 'https://ci.example.test/runs/1',
  token: 'secret-token',
  username: null,
  ...over,
});

describe('requests', () => {
  it('GitHub: /repos/{owner}/{repo}/statuses/{sha}, Bearer, the JSON media type, a 140-character description', () => {
    const r = githubStatusRequest(input({ description: 'x'.repeat(200) }));
    expect(r.url).toBe(`https://api.example.test/repos/acme/shop/statuses/${SHA}`);
    expect(r.headers).toMatchObject({
      authorization: 'Bearer secret-token',
      accept: 'application/vnd.github+json',
    });
    const body = JSON.parse(r.body);
    expect(Object.keys(body).sort()).toEqual(['context', 'description', 'state', 'target_url']);
    expect(body.description).toHaveLength(140);
  });

  it('GitLab: the project path URL-encoded as one segment, PRIVATE-TOKEN, `name`', () => {
    const r = gitlabStatusRequest(input({ repository: 'group/sub/api', apiUrl: 'https://gl.test/api/v4' }));
    expect(r.url).toBe(`https://gl.test/api/v4/projects/group%2Fsub%2Fapi/statuses/${SHA}`);
    expect(r.headers['private-token']).toBe('secret-token');
    expect(r.headers.authorization).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({
      state: 'success',
      target_url: 'https://ci.example.test/runs/1',
      description: 'Run #3 succeeded',
      name: 'ci/gocdnext/shop/build',
    });
  });

  it('Bitbucket: Basic with a username, Bearer without; key at most 40 characters', () => {
    const basic = bitbucketStatusRequest(input({ username: 'ci-bot' }));
    expect(basic.url).toBe(`https://api.example.test/repositories/acme/shop/commit/${SHA}/statuses/build`);
    expect(basic.headers.authorization).toBe(
      `Basic ${Buffer.from('ci-bot:secret-token').toString('base64')}`,
    );
    expect(bitbucketStatusRequest(input()).headers.authorization).toBe('Bearer secret-token');
    expect(JSON.parse(basic.body)).toEqual({
      key: 'ci/gocdnext/shop/build',
      state: 'success',
      url: 'https://ci.example.test/runs/1',
      name: 'ci/gocdnext/shop/build',
      description: 'Run #3 succeeded',
    });
    const long = bitbucketKey(`gocdnext/${'p'.repeat(60)}`);
    expect(long).toHaveLength(40);
    expect(long).not.toBe(bitbucketKey(`gocdnext/${'p'.repeat(61)}`));
  });
});
