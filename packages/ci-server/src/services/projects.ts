// Projects and pipelines as the API shows them: the project list, ProjectDetail (active pipelines with
// stages, a job summary, `when`, concurrency, materials and latest run, plus recent runs, in four queries
// whatever the number of pipelines), cascading delete, and a pipeline's YAML.
import { notFound } from '@app/kit';
import { type PipelineDocument, serializePipeline } from '../domain/index.js';
import { recordProjectBlobs } from '../store/blob-deletions.js';
import type { StoreDb } from '../store/database.js';
import { latestRuns, type RunSummaryRow, recentRuns } from '../store/runs-query.js';

/** How many runs ProjectDetail's `recent_runs` holds (the runs list pages further). */
export const RECENT_RUNS = 20;

const projectColumns = ['slug', 'name', 'description', 'created_at', 'updated_at'] as const;

export interface MaterialView {
  kind: string;
  fingerprint: string;
  [key: string]: unknown;
}

export interface PipelineView {
  id: string;
  name: string;
  stages: string[];
  /** The pipeline's declared `parameters` with their defaults (the trigger dialog lists them). */
  parameters: Record<string, string>;
  materials: MaterialView[];
  /** A summary of the jobs (the pipeline page lists them); the YAML route has the whole text. */
  jobs: JobView[];
  when: { event: string[]; branch: string[]; paths: string[] } | null;
  concurrency: { mode: string; group: string | null } | null;
  latest_run: RunSummaryRow | null;
}

export interface JobView {
  name: string;
  stage: string;
  kind: 'script' | 'gate' | 'plugin';
  needs: string[];
  image: string | null;
  matrix: number;
}

/** The job summary of a pipeline document, in declaration order. */
export function jobViews(doc: PipelineDocument): JobView[] {
  return Object.entries(doc.jobs).map(([name, j]) => ({
    name,
    stage: j.stage,
    kind: j.approval ? 'gate' : j.uses ? 'plugin' : 'script',
    needs: j.needs ?? [],
    image: j.uses ?? j.image ?? null,
    matrix: j.matrix ? Object.values(j.matrix).reduce((n, values) => n * values.length, 1) : 0,
  }));
}

export async function listProjects(db: StoreDb) {
  const projects = await db.selectFrom('projects').select(projectColumns).orderBy('slug').execute();
  return { projects };
}

export async function getProjectDetail(db: StoreDb, slug: string) {
  const project = await db
    .selectFrom('projects')
    .select(['id', ...projectColumns])
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!project) throw notFound(`project "${slug}" not found`);
  const [pipelines, materials, latest, recent] = await Promise.all([
    db
      .selectFrom('pipelines')
      .select(['id', 'name', 'definition'])
      .where('project_id', '=', project.id)
      .where('archived', '=', 0)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('materials as m')
      .innerJoin('pipelines as p', 'p.id', 'm.pipeline_id')
      .select(['m.pipeline_id', 'm.kind', 'm.fingerprint', 'm.config'])
      .where('p.project_id', '=', project.id)
      .where('p.archived', '=', 0)
      .orderBy('m.pipeline_id')
      .orderBy('m.position')
      .execute(),
    latestRuns(db, project.id),
    recentRuns(db, project.id, RECENT_RUNS),
  ]);
  const latestBy = new Map(latest.map((r) => [r.pipeline_id, r]));
  const pipelineViews: PipelineView[] = pipelines.map((p) => {
    const doc = JSON.parse(p.definition) as PipelineDocument;
    return {
      id: p.id,
      name: p.name,
      stages: doc.stages,
      parameters: doc.parameters ?? {},
      jobs: jobViews(doc),
      when: doc.when
        ? { event: doc.when.event ?? [], branch: doc.when.branch ?? [], paths: doc.when.paths ?? [] }
        : null,
      concurrency: doc.concurrency
        ? { mode: doc.concurrency.mode, group: doc.concurrency.group ?? null }
        : null,
      materials: materials
        .filter((m) => m.pipeline_id === p.id)
        .map((m) => ({ kind: m.kind, fingerprint: m.fingerprint, ...JSON.parse(m.config) })),
      latest_run: latestBy.get(p.id) ?? null,
    };
  });
  const { id: _id, ...fields } = project;
  return { ...fields, pipelines: pipelineViews, recent_runs: recent };
}

/**
 * Deletes a project; foreign keys cascade to pipelines, versions, materials, runs, logs, artifacts, secrets.
 * Its files (artifacts, caches, archived logs) are recorded for the retention sweeper in the same
 * transaction, so they are deleted from the storage backend even if the process stops right after.
 */
export async function deleteProject(db: StoreDb, slug: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom('projects').select('id').where('slug', '=', slug).executeTakeFirst();
    if (!project) throw notFound(`project "${slug}" not found`);
    await recordProjectBlobs(trx, project.id);
    await trx.deleteFrom('projects').where('id', '=', project.id).execute();
  });
}

/** The pipeline's text as applied (`reconstructed: false`), else its parsed form written back. */
export async function pipelineYaml(db: StoreDb, id: string) {
  const row = await db
    .selectFrom('pipelines')
    .select(['raw_yaml', 'raw_reconstructed', 'definition'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`pipeline ${id} not found`);
  if (row.raw_yaml !== null && row.raw_yaml !== '')
    return { yaml: row.raw_yaml, reconstructed: row.raw_reconstructed === 1 };
  return { yaml: serializePipeline(JSON.parse(row.definition) as PipelineDocument), reconstructed: true };
}

/**
 * The status of a pipeline's latest run (optionally on one branch) for its badge; null when it never ran or
 * the project or pipeline does not exist (the badge does not tell these apart).
 */
export async function latestRunStatus(
  db: StoreDb,
  slug: string,
  pipeline: string,
  branch?: string,
): Promise<string | null> {
  let q = db
    .selectFrom('runs as r')
    .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
    .innerJoin('projects as pr', 'pr.id', 'p.project_id')
    .select('r.status')
    .where('pr.slug', '=', slug)
    .where('p.name', '=', pipeline)
    .where('p.archived', '=', 0);
  if (branch !== undefined) q = q.where('r.git_ref', '=', branch);
  const latest = await q.orderBy('r.counter', 'desc').limit(1).executeTakeFirst();
  return latest?.status ?? null;
}
