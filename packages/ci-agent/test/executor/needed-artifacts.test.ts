// gocdnext's job inputs and outputs on the agent: needed artifacts land at <dest>/<path> in the checkout
// after their size and SHA-256 are checked, never outside it (a `..` destination, a symbolic link planted in
// the checkout); the output file's KEY=value lines are read back under the declared aliases, a declared
// one that is missing failing the job.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ArtifactDownloader,
  fetchNeededArtifacts,
  type NeededArtifactAssignment,
  parseOutputs,
} from '../../src/index.js';
import { scratchDir } from './helpers.js';

const sha = (b: string) => createHash('sha256').update(b).digest('hex');

function served(files: Record<string, string>): ArtifactDownloader {
  return {
    async download(a, destFile) {
      const body = files[a.artifactId];
      if (body === undefined) throw new Error(`artifact ${a.artifactId} is not available`);
      writeFileSync(destFile, body);
    },
  };
}

const needed = (id: string, path: string, body: string, dest = '.'): NeededArtifactAssignment => ({
  artifactId: id,
  path,
  dest,
  sizeBytes: Buffer.byteLength(body),
  contentSha256: sha(body),
  fromJob: 'build',
});

function workspace() {
  const root = scratchDir('needed-');
  const checkout = join(root, 'src');
  const staging = join(root, '.ci');
  mkdirSync(checkout);
  mkdirSync(staging);
  return { root, checkout, staging };
}

describe('needed artifacts', () => {
  it('restores each file under its destination and replaces what the checkout had', async () => {
    const ws = workspace();
    mkdirSync(join(ws.checkout, 'dist'));
    writeFileSync(join(ws.checkout, 'dist', 'app.js'), 'old');
    const notes: string[] = [];
    await fetchNeededArtifacts(
      ws.checkout,
      ws.staging,
      [needed('a', 'dist/app.js', 'new'), needed('b', 'web/node_modules/x/i.js', 'mod', 'vendor')],
      served({ a: 'new', b: 'mod' }),
      (t) => notes.push(t),
    );
    expect(readFileSync(join(ws.checkout, 'dist', 'app.js'), 'utf8')).toBe('new');
    expect(readFileSync(join(ws.checkout, 'vendor', 'web', 'node_modules', 'x', 'i.js'), 'utf8')).toBe('mod');
    expect(notes).toEqual(['2 artifact file(s) of job(s) build restored into the workspace']);
  });

  it('refuses a damaged download, a missing one and any destination outside the checkout', async () => {
    const ws = workspace();
    const fetch = (a: NeededArtifactAssignment, files: Record<string, string>) =>
      fetchNeededArtifacts(ws.checkout, ws.staging, [a], served(files), () => {});
    await expect(fetch(needed('a', 'a.txt', 'good'), { a: 'evil' })).rejects.toThrow(
      'artifact a.txt of job build arrived damaged',
    );
    expect(existsSync(join(ws.checkout, 'a.txt'))).toBe(false);
    await expect(fetch(needed('gone', 'b.txt', 'x'), {})).rejects.toThrow(
      'artifact b.txt of job build could not be downloaded: artifact gone is not available',
    );
    await expect(fetch(needed('c', 'c.txt', 'x', '../..'), { c: 'x' })).rejects.toThrow(
      'its destination leaves the checkout',
    );
    symlinkSync(ws.root, join(ws.checkout, 'out'));
    await expect(fetch(needed('d', 'out/d.txt', 'x'), { d: 'x' })).rejects.toThrow(
      'out leads out of the checkout',
    );
    expect(existsSync(join(ws.root, 'd.txt'))).toBe(false);
  });
});

describe('job outputs', () => {
  it('reads declared variables under their aliases; the last line of a key wins and extras are dropped', () => {
    const text = '# comment\nNEXT=1.0.0\nKIND=minor\r\nNEXT=1.1.0\nEXTRA=x\n\nURL=https://x/?a=b\n';
    expect(parseOutputs(text, { next: 'NEXT', kind: 'KIND', url: 'URL' })).toEqual({
      outputs: { next: '1.1.0', kind: 'minor', url: 'https://x/?a=b' },
    });
  });

  it('fails when a declared output is not written, naming alias and variable, or when they are too large', () => {
    expect(parseOutputs('NEXT=1\n', { next: 'NEXT', kind: 'KIND', tag: 'TAG' })).toEqual({
      error: 'declared output(s) not written to $GOCDNEXT_OUTPUT_FILE: kind (KIND), tag (TAG)',
    });
    expect(parseOutputs(`BIG=${'x'.repeat(70_000)}\n`, { big: 'BIG' })).toEqual({
      error: "the job's outputs exceed 65536 bytes",
    });
  });
});
