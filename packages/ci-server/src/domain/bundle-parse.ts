/**
 * Parses pipeline bundles (spec/pipeline-yaml.md) into checked documents, or a list of errors each naming
 * its path and line/column. Entry points:
 *
 * - `parseBundle(text)`: the JSON variant of apply, one `{project, pipelines}` document;
 * - `parsePipelineDocument(text)`: one pipeline file;
 * - `assembleBundle(project, files)`: the multipart variant, giving the same result as `parseBundle`.
 *
 * Upstream materials: one naming a pipeline of the same bundle must name one of its stages, and upstream
 * links must not form a cycle. One naming a pipeline that is NOT in the bundle is not an error here: it is
 * listed in `externalUpstreams`, and the service resolves it against the project's stored pipelines (it
 * simply never fires if no such pipeline exists).
 */
import { createHash } from 'node:crypto';
import { LineCounter, parseDocument } from 'yaml';
import { BUNDLE_KEYS, NAME_MAX, nameOpts, SLUG } from './bundle-rules.js';
import type {
  Bundle,
  BundlePipeline,
  BundleResult,
  ExternalUpstream,
  PipelineResult,
  ProjectSpec,
} from './bundle-types.js';
import { groupConflicts } from './concurrency.js';
import { type ReadPipeline, readPipeline } from './pipeline-read.js';
import { sliceSequenceItems } from './raw-slice.js';
import { type BundleError, indexPath, MAX_ERRORS, Reader, type YNode } from './yaml-reader.js';

export { BUNDLE_KEYS } from './bundle-rules.js';
export { formatBundleError } from './yaml-reader.js';

const SLUG_HINT = 'lowercase letters, digits and "-", starting with a letter or digit, at most 63 characters';

interface Loaded {
  r: Reader;
  root: YNode;
  /** The whole document as plain data. */
  value: unknown;
}

/** Alias expansion budget (yaml's own guard against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 100;

/** Parses YAML text; syntax problems become errors and give null. */
function load(text: string, errors: BundleError[], file?: string): Loaded | null {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const r = new Reader(text, doc, lc, errors, file);
  const problems = [...doc.errors, ...doc.warnings];
  for (const e of problems) {
    const { line, col } = lc.linePos(e.pos[0]);
    const error: BundleError = { message: `YAML: ${e.message.split('\n')[0]}`, path: '', line, column: col };
    if (file !== undefined) error.file = file;
    if (errors.length < MAX_ERRORS) errors.push(error);
  }
  if (problems.length > 0) return null;
  if (doc.contents === null || doc.contents === undefined) {
    r.fail(null, '', 'the document is empty');
    return null;
  }
  try {
    return { r, root: doc.contents, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (err) {
    r.fail(null, '', `YAML: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

export function pipelineDigest(document: unknown, rawYaml: string): string {
  return createHash('sha256').update(JSON.stringify({ document, rawYaml })).digest('hex');
}

interface Read {
  r: Reader;
  read: ReadPipeline;
  path: string;
  rawYaml: string;
  rawReconstructed: boolean;
}

/** Checks spanning pipelines: unique names, upstream stages, upstream cycles. */
function crossCheck(reads: Read[]): ExternalUpstream[] {
  const byName = new Map<string, Read>();
  for (const x of reads) {
    const name = x.read.document.name;
    const first = byName.get(name);
    if (first)
      x.r.fail(
        x.read.nameNode,
        `${x.path === '' ? '' : `${x.path}.`}name`,
        `pipeline name "${name}" is already used by ${first.path || first.r.file || 'another pipeline'}`,
      );
    else byName.set(name, x);
  }
  const external: ExternalUpstream[] = [];
  for (const x of reads) {
    for (const up of x.read.upstreams) {
      const target = byName.get(up.material.pipeline);
      if (!target) {
        external.push({ pipeline: x.read.document.name, upstream: up.material.pipeline, path: up.path });
      } else if (!target.read.document.stages.includes(up.material.stage)) {
        const stages = target.read.document.stages.join(', ');
        x.r.fail(
          up.stageNode,
          up.path.replace(/pipeline$/, 'stage'),
          `pipeline "${up.material.pipeline}" has no stage "${up.material.stage}" (stages: ${stages})`,
        );
      }
    }
  }
  for (const c of groupConflicts(reads.map((x) => x.read.document))) {
    const x = byName.get(c.pipeline)!;
    x.r.fail(null, `${x.path === '' ? '' : `${x.path}.`}concurrency`, c.message);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (x: Read): void => {
    const name = x.read.document.name;
    state.set(name, 'visiting');
    stack.push(name);
    for (const up of x.read.upstreams) {
      const target = byName.get(up.material.pipeline);
      if (!target) continue;
      const s = state.get(up.material.pipeline);
      if (s === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(up.material.pipeline)), up.material.pipeline].join(
          ' <- ',
        );
        x.r.fail(up.node, up.path, `upstream materials form a cycle: ${cycle}`);
      } else if (s === undefined) visit(target);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const x of byName.values()) if (!state.has(x.read.document.name)) visit(x);
  return external;
}

function sortErrors(errors: BundleError[], files: readonly (string | undefined)[]): BundleError[] {
  const fileRank = (e: BundleError) => (e.file === undefined ? -1 : files.indexOf(e.file));
  return errors
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) =>
        fileRank(a.e) - fileRank(b.e) ||
        (a.e.line ?? Number.MAX_SAFE_INTEGER) - (b.e.line ?? Number.MAX_SAFE_INTEGER) ||
        (a.e.column ?? 0) - (b.e.column ?? 0) ||
        a.i - b.i,
    )
    .map(({ e }) => e);
}

function finish(
  project: ProjectSpec,
  reads: Read[],
  errors: BundleError[],
  files: (string | undefined)[],
): BundleResult {
  const externalUpstreams = crossCheck(reads);
  if (errors.length > 0) return { ok: false, errors: sortErrors(errors, files) };
  const pipelines: BundlePipeline[] = reads.map((x) => ({
    document: x.read.document,
    rawYaml: x.rawYaml,
    rawReconstructed: x.rawReconstructed,
    digest: pipelineDigest(x.read.document, x.rawYaml),
  }));
  const secrets = new Set(
    pipelines.flatMap((p) => [
      ...Object.values(p.document.jobs).flatMap((j) => j.secrets),
      ...(p.document.notifications ?? []).flatMap((n) => n.secrets),
    ]),
  );
  const bundle: Bundle = { project, pipelines, externalUpstreams, secretReferences: [...secrets].sort() };
  return { ok: true, bundle };
}

function readProject(r: Reader, raw: YNode, path: string): ProjectSpec {
  const p = r.map(raw, path, BUNDLE_KEYS.project, ['slug', 'name']) ?? {};
  const slug = p.slug ? r.str(p.slug.node, p.slug.path, { pattern: SLUG, patternHint: SLUG_HINT }) : null;
  const name = p.name ? r.str(p.name.node, p.name.path, nameOpts) : null;
  const description = p.description
    ? r.str(p.description.node, p.description.path, { allowEmpty: true })
    : null;
  return { slug: slug ?? '', name: name ?? '', description };
}

/** The JSON variant: one YAML document `{project, pipelines: [pipeline documents]}`. */
export function parseBundle(yamlText: string): BundleResult {
  const errors: BundleError[] = [];
  const loaded = load(yamlText, errors);
  if (!loaded) return { ok: false, errors };
  const { r, root } = loaded;
  const top = r.map(root, '', BUNDLE_KEYS.bundle, ['project', 'pipelines']);
  if (!top) return { ok: false, errors };
  const project = readProject(r, top.project?.node, 'project');
  const reads: Read[] = [];
  if (top.pipelines) {
    const items = r.seq(top.pipelines.node, 'pipelines', 'a list of pipeline documents') ?? [];
    const seqNode = r.resolve(top.pipelines.node);
    const values = (loaded.value as { pipelines?: unknown[] }).pipelines ?? [];
    const slices = seqNode && items.length > 0 ? sliceSequenceItems(yamlText, seqNode, r.lc, values) : [];
    items.forEach((item, i) => {
      const path = indexPath('pipelines', i);
      const read = readPipeline(r, item, path);
      const slice = slices[i] ?? { text: '', reconstructed: true };
      if (read) reads.push({ r, read, path, rawYaml: slice.text, rawReconstructed: slice.reconstructed });
    });
  }
  return finish(project, reads, errors, []);
}

/** gocdnext names a pipeline without `name` after its file: `.gocdnext/build.yaml` is "build". */
function nameFromFile(file: string | undefined): string | undefined {
  if (!file || /^files\[\d+\]$/.test(file)) return undefined;
  const base = file.split(/[\\/]/).pop() ?? '';
  const name = base.replace(/\.(ya?ml)$/i, '');
  return name === '' ? undefined : name;
}

function readFile(text: string, errors: BundleError[], file?: string): Read | null {
  const loaded = load(text, errors, file);
  if (!loaded) return null;
  const read = readPipeline(loaded.r, loaded.root, '', nameFromFile(file));
  if (!read) return null;
  return { r: loaded.r, read, path: '', rawYaml: text, rawReconstructed: false };
}

/** One pipeline document (a file of the multipart variant); `rawYaml` is the whole text. */
export function parsePipelineDocument(yamlText: string, file?: string): PipelineResult {
  const errors: BundleError[] = [];
  const read = readFile(yamlText, errors, file);
  const externalUpstreams = read ? crossCheck([read]) : [];
  if (!read || errors.length > 0) return { ok: false, errors: sortErrors(errors, [file]) };
  const pipeline: BundlePipeline = {
    document: read.read.document,
    rawYaml: yamlText,
    rawReconstructed: false,
    digest: pipelineDigest(read.read.document, yamlText),
  };
  return { ok: true, pipeline, externalUpstreams };
}

export interface ProjectFields {
  slug: string;
  name: string;
  description?: string | null;
}

/** A file part: its text, or its text with the name it was uploaded under (used in error reports). */
export type PipelineFile = string | { name: string; text: string };

/**
 * The multipart variant: project fields from form fields, one pipeline document per file. Errors in a file
 * carry `file` (its name, else `files[i]`) and paths inside that document; errors in the form fields have
 * the field name as path and no line.
 */
export function assembleBundle(project: ProjectFields, files: readonly PipelineFile[]): BundleResult {
  const errors: BundleError[] = [];
  const field = (path: string, message: string) => errors.push({ message, path, line: null, column: null });
  const slug = typeof project.slug === 'string' ? project.slug : '';
  const name = typeof project.name === 'string' ? project.name : '';
  if (!SLUG.test(slug))
    field('slug', slug === '' ? 'the slug is required' : `"${slug}" is not a valid slug: use ${SLUG_HINT}`);
  if (name.trim() === '') field('name', 'the name is required');
  else if (name.length > NAME_MAX)
    field('name', `is ${name.length} characters long; at most ${NAME_MAX} are allowed`);
  const description = typeof project.description === 'string' ? project.description : null;
  const names = files.map((f, i) =>
    typeof f === 'string' ? indexPath('files', i) : f.name || indexPath('files', i),
  );
  const reads: Read[] = [];
  files.forEach((f, i) => {
    const read = readFile(typeof f === 'string' ? f : f.text, errors, names[i]);
    if (read) reads.push(read);
  });
  return finish({ slug, name, description }, reads, errors, names);
}
