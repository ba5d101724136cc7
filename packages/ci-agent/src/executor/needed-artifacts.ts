// gocdnext's job inputs and outputs on the agent (docs/ci-gocdnext.md). needs_artifacts: each file an
// earlier job uploaded is downloaded into the checkout at <dest>/<path> before services and the script
// start, checked against the size and SHA-256 the server stored; a destination that would leave the
// checkout (a `..`, a symbolic link planted by the checkout) is refused. outputs: the job writes KEY=value
// lines to $GOCDNEXT_OUTPUT_FILE; after a successful script the declared variables are read back under their
// aliases, and a declared one the job did not write fails it (outputs are part of its contract).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { NeededArtifactAssignment } from '../job-spec.js';

export interface ArtifactDownloader {
  /** Writes the artifact's bytes to destFile; rejects when the server refuses or the transfer fails. */
  download(artifact: NeededArtifactAssignment, destFile: string): Promise<void>;
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

async function digest(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** The existing part of `target`'s directory chain must resolve inside the checkout (no planted link out). */
async function checkParents(root: string, target: string): Promise<void> {
  let dir = dirname(target);
  while (inside(root, dir) && dir !== root) {
    const st = await lstat(dir).catch(() => null);
    if (st) {
      if (!inside(root, await realpath(dir)))
        throw new Error(`${relative(root, dir)} leads out of the checkout`);
      return;
    }
    dir = dirname(dir);
  }
}

/** Downloads every needed artifact into the checkout; the first failure rejects with a message naming it. */
export async function fetchNeededArtifacts(
  checkout: string,
  staging: string,
  artifacts: readonly NeededArtifactAssignment[],
  downloader: ArtifactDownloader,
  note: (text: string) => void,
): Promise<void> {
  const root = await realpath(checkout);
  const jobs = new Set<string>();
  let n = 0;
  for (const a of artifacts) {
    const target = resolve(root, a.dest || '.', a.path);
    const what = `artifact ${a.path} of job ${a.fromJob}`;
    if (!inside(root, target) || target === root)
      throw new Error(`${what}: its destination leaves the checkout`);
    await checkParents(root, target);
    const temp = join(staging, `needed-${++n}`);
    try {
      await downloader.download(a, temp);
    } catch (err) {
      throw new Error(`${what} could not be downloaded: ${err instanceof Error ? err.message : String(err)}`);
    }
    const got = await digest(temp);
    if (got.size !== a.sizeBytes || (a.contentSha256 && got.sha256 !== a.contentSha256)) {
      await rm(temp, { force: true });
      throw new Error(`${what} arrived damaged (size or SHA-256 differs from the stored one)`);
    }
    await mkdir(dirname(target), { recursive: true });
    await rm(target, { recursive: true, force: true });
    await rename(temp, target);
    jobs.add(a.fromJob);
  }
  note(`${artifacts.length} artifact file(s) of job(s) ${[...jobs].join(', ')} restored into the workspace`);
}

/** gocdnext's caps on a job's outputs. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * The declared outputs from the KEY=value lines of the output file (the last line of a key wins; blank
 * lines and `#` comments are skipped; extra keys are dropped), or the reason the job fails.
 */
export function parseOutputs(
  text: string,
  declared: Record<string, string>,
): { outputs: Record<string, string> } | { error: string } {
  const values = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    values.set(line.slice(0, eq).trim(), line.slice(eq + 1));
  }
  const outputs: Record<string, string> = {};
  const missing: string[] = [];
  let bytes = 0;
  for (const [alias, env] of Object.entries(declared)) {
    const v = values.get(env);
    if (v === undefined) missing.push(`${alias} (${env})`);
    else {
      outputs[alias] = v;
      bytes += Buffer.byteLength(alias) + Buffer.byteLength(v);
    }
  }
  if (missing.length > 0)
    return { error: `declared output(s) not written to $GOCDNEXT_OUTPUT_FILE: ${missing.join(', ')}` };
  if (bytes > MAX_OUTPUT_BYTES) return { error: `the job's outputs exceed ${MAX_OUTPUT_BYTES} bytes` };
  return { outputs };
}

/** Reads the output file the job wrote (absent: no line written). */
export async function readOutputs(
  file: string,
  declared: Record<string, string>,
): Promise<{ outputs: Record<string, string> } | { error: string }> {
  const st = await lstat(file).catch(() => null);
  if (st && !st.isFile()) return { error: '$GOCDNEXT_OUTPUT_FILE is not a regular file' };
  if (st && st.size > 4 * MAX_OUTPUT_BYTES)
    return { error: `$GOCDNEXT_OUTPUT_FILE is larger than ${4 * MAX_OUTPUT_BYTES} bytes` };
  const text = st ? await readFile(file, 'utf8') : '';
  return parseOutputs(text, declared);
}
