// Artifacts (spec/pipeline-yaml.md `artifacts`): the files of the checkout matching `paths` (a directory
// means everything under it, globs are expanded) are collected with their exact size and SHA-256 when
// `when` allows, and handed one by one to an ArtifactUploader (the network part, plugged in by the
// connection layer; the server verifies size and digest). Nothing outside the checkout is ever collected:
// `..` and absolute patterns are refused, and symbolic links leading out of the checkout are skipped.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, normalize, relative, sep } from 'node:path';
import { glob } from 'tinyglobby';
import type { ArtifactWhen } from '../job-spec.js';

export interface CollectedArtifact {
  /** Relative to the checkout, with `/` separators. */
  path: string;
  size_bytes: number;
  content_sha256: string;
  absolutePath: string;
}

export interface ArtifactUploader {
  /** Uploads one file; rejects when the server did not accept it. */
  upload(artifact: CollectedArtifact): Promise<void>;
}

export const MAX_ARTIFACT_FILES = 10_000;

export function shouldCollectArtifacts(when: ArtifactWhen, succeeded: boolean): boolean {
  return when === 'always' || (when === 'on_success' ? succeeded : !succeeded);
}

export async function digestFile(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

function unsafePattern(pattern: string): boolean {
  const clean = normalize(pattern);
  return (
    isAbsolute(pattern) || clean === '..' || clean.startsWith('../') || pattern.split('/').includes('..')
  );
}

export interface Collected {
  artifacts: CollectedArtifact[];
  /** Patterns that matched nothing, refused patterns, skipped links, truncation. */
  warnings: string[];
}

export async function collectArtifacts(
  checkout: string,
  patterns: string[],
  maxFiles = MAX_ARTIFACT_FILES,
): Promise<Collected> {
  const warnings: string[] = [];
  const root = await realpath(checkout);
  const relativePaths = new Set<string>();
  for (const pattern of patterns) {
    if (unsafePattern(pattern)) {
      warnings.push(`artifact path ${pattern} is outside the checkout; ignored`);
      continue;
    }
    // Directories expand to their whole content (`dist/` → `dist/**`); dot files are artifacts too.
    const matches = await glob(pattern, { cwd: root, dot: true, onlyFiles: true, expandDirectories: true });
    if (matches.length === 0) warnings.push(`no file matches artifact path ${pattern}`);
    for (const m of matches) relativePaths.add(m);
  }

  const artifacts: CollectedArtifact[] = [];
  for (const rel of [...relativePaths].sort()) {
    if (artifacts.length >= maxFiles) {
      warnings.push(`more than ${maxFiles} artifact files; the rest were not collected`);
      break;
    }
    const candidate = `${root}${sep}${rel}`;
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      continue; // removed meanwhile, or a dangling link
    }
    const inside = relative(root, real);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      warnings.push(`artifact ${rel} links outside the checkout; skipped`);
      continue;
    }
    if (!(await stat(real)).isFile()) continue;
    const { size, sha256 } = await digestFile(real);
    artifacts.push({
      path: rel.split(sep).join('/'),
      size_bytes: size,
      content_sha256: sha256,
      absolutePath: real,
    });
  }
  return { artifacts, warnings };
}

/** Uploads the collected files in order; the first refusal stops and rejects with the file named. */
export async function uploadArtifacts(
  artifacts: CollectedArtifact[],
  uploader: ArtifactUploader,
): Promise<CollectedArtifact[]> {
  const done: CollectedArtifact[] = [];
  for (const a of artifacts) {
    try {
      await uploader.upload(a);
    } catch (err) {
      throw new Error(
        `uploading artifact ${a.path} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    done.push(a);
  }
  return done;
}
