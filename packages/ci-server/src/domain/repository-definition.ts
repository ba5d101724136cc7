// A project's pipeline definition as a repository holds it (pipelines as code, triggers/config-repo.ts): the
// pipeline files of its `.gocdnext/` folder, gocdnext's form, and our own `{yaml}` bundle kept in the file
// named BUNDLE_FILE (the apply route's `{project, pipelines}` document). Both may sit side by side; they are
// assembled into one bundle with the apply route's checks, so a pipeline named twice, a bad upstream reference
// or a refused key is an error naming its file, never half a definition.
import { assembleBundle, type PipelineFile, type ProjectFields, parseBundle } from './bundle-parse.js';
import type { BundleResult } from './bundle-types.js';
import type { BundleError } from './yaml-reader.js';

/** Our bundle's file name in a repository (at its root, or as the binding's `path`). */
export const BUNDLE_FILE = 'ci-bundle.yaml';

/** Whether a repository file holds our bundle rather than one gocdnext pipeline. */
export function isBundleFile(name: string): boolean {
  return (name.split('/').pop() ?? '') === BUNDLE_FILE;
}

/**
 * One bundle from a repository's files. A bundle file must declare this project (its `project.slug`): a
 * bundle copied from another project would otherwise replace this one's pipelines with that one's.
 */
export function assembleRepositoryDefinition(
  project: ProjectFields,
  files: readonly { name: string; text: string }[],
): BundleResult {
  const errors: BundleError[] = [];
  const pipelines: PipelineFile[] = [];
  for (const file of files) {
    if (!isBundleFile(file.name)) {
      pipelines.push(file);
      continue;
    }
    const parsed = parseBundle(file.text);
    if (!parsed.ok) {
      errors.push(...parsed.errors.map((e) => ({ ...e, file: file.name })));
      continue;
    }
    const slug = parsed.bundle.project.slug;
    if (slug !== project.slug) {
      errors.push({
        message: `${file.name} declares project "${slug}", but this repository is bound to project "${project.slug}"`,
        path: 'project.slug',
        line: null,
        column: null,
        file: file.name,
      });
      continue;
    }
    // Each pipeline goes on as its own document (the slice of the file that holds it), so the assembly checks
    // it beside the folder's files exactly as the apply route checks a multipart bundle.
    parsed.bundle.pipelines.forEach((p, i) => {
      pipelines.push({ name: `${file.name} pipelines[${i}]`, text: p.rawYaml });
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return assembleBundle(project, pipelines);
}
