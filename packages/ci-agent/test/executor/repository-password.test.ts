// The repository password the job log masks (executor/checkout.ts repositoryPassword): whatever spelling the
// URL uses for it (percent-encoded, with characters URL syntax reserves, beside a user name), the decoded
// password reaches the masker, and a line that prints it in either spelling comes out masked.
import { Masker } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { repositoryPassword } from '../../src/executor/checkout.js';

describe('the repository password masked in the job log', () => {
  it.each([
    ['plain', 'https://ci:s3cret-pass@git.example.test/r.git', 's3cret-pass'],
    ['percent-encoded', 'https://ci:p%40ss%3Aword%2F1@git.example.test/r.git', 'p@ss:word/1'],
    ['token as user, x-oauth', 'https://x-access-token:ghp_abcdef123456@host.test/r.git', 'ghp_abcdef123456'],
    ['encoded unicode', 'https://u:%C3%A9t%C3%A9-secret@host.test/r.git', 'été-secret'],
  ])('%s: decoded and masked in both spellings', (_, url, password) => {
    expect(repositoryPassword(url)).toBe(password);
    const masker = new Masker([password]);
    const encoded = new URL(url).password;
    const line = masker.mask(`fatal: auth ${password} then ${decodeURIComponent(encoded)}`);
    expect(line).not.toContain(password);
  });

  it.each([
    ['no credentials', 'https://git.example.test/r.git'],
    ['a user only', 'https://ci@git.example.test/r.git'],
    ['scp-like address', 'git@github.com:acme/r.git'],
    ['not a URL', '::::'],
  ])('%s: nothing to mask, and no throw', (_, url) => {
    expect(repositoryPassword(url)).toBeUndefined();
  });
});
