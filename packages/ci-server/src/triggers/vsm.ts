// The value-stream map of a project (GoCD's VSM): git materials and pipelines as nodes; edges from each git
// material to the pipelines it feeds and from each upstream pipeline to its downstream pipelines (with the
// stage and status that trigger). Pipelines carry their latest run and `has_services`; git materials their
// latest recorded modification. Five queries whatever the size of the project.
import type { PipelineDocument, UpstreamMaterial } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { projectIdOf } from '../store/lookups.js';
import { latestRuns, type RunSummaryRow } from '../store/runs-query.js';
import { scrub } from './git.js';

export interface MaterialNode {
  id: string;
  kind: 'git';
  fingerprint: string;
  url: string;
  branch: string;
  latest_modification: {
    revision: string;
    author: string | null;
    message: string | null;
    detected_at: string;
  } | null;
}

export interface PipelineNode {
  id: string;
  kind: 'pipeline';
  pipeline_id: string;
  name: string;
  stages: string[];
  has_services: boolean;
  crons: string[];
  latest_run: RunSummaryRow | null;
}

export interface VsmEdge {
  from: string;
  to: string;
  kind: 'material' | 'upstream';
  stage?: string;
  status?: string;
}

export async function buildVsm(db: StoreDb, slug: string) {
  const projectId = await projectIdOf(db, slug);
  const [pipelines, materials, latest] = await Promise.all([
    db
      .selectFrom('pipelines')
      .select(['id', 'name', 'definition'])
      .where('project_id', '=', projectId)
      .where('archived', '=', 0)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('materials as m')
      .innerJoin('pipelines as p', 'p.id', 'm.pipeline_id')
      .select(['m.pipeline_id', 'm.kind', 'm.fingerprint', 'm.config'])
      .where('p.project_id', '=', projectId)
      .where('p.archived', '=', 0)
      .orderBy('m.pipeline_id')
      .orderBy('m.position')
      .execute(),
    latestRuns(db, projectId),
  ]);
  const latestBy = new Map(latest.map((r) => [r.pipeline_id, r]));
  const byName = new Map(pipelines.map((p) => [p.name, p.id]));
  const nodes: (MaterialNode | PipelineNode)[] = [];
  const edges: VsmEdge[] = [];
  const gitNodes = new Map<string, MaterialNode>();
  const crons = new Map<string, string[]>();
  for (const m of materials) {
    const config = JSON.parse(m.config) as {
      git?: { url: string; branch: string };
      upstream?: UpstreamMaterial;
      cron?: { expression: string };
    };
    if (config.git) {
      const id = `material:${m.fingerprint}`;
      if (!gitNodes.has(m.fingerprint)) {
        const node: MaterialNode = {
          id,
          kind: 'git',
          fingerprint: m.fingerprint,
          url: scrub(config.git.url),
          branch: config.git.branch,
          latest_modification: null,
        };
        gitNodes.set(m.fingerprint, node);
      }
      edges.push({ from: id, to: `pipeline:${m.pipeline_id}`, kind: 'material' });
    } else if (config.upstream) {
      const upstreamId = byName.get(config.upstream.pipeline);
      if (upstreamId)
        edges.push({
          from: `pipeline:${upstreamId}`,
          to: `pipeline:${m.pipeline_id}`,
          kind: 'upstream',
          stage: config.upstream.stage,
          status: config.upstream.status,
        });
    } else if (config.cron) {
      crons.set(m.pipeline_id, [...(crons.get(m.pipeline_id) ?? []), config.cron.expression]);
    }
  }
  await attachModifications(db, [...gitNodes.values()]);
  nodes.push(...gitNodes.values());
  for (const p of pipelines) {
    const doc = JSON.parse(p.definition) as PipelineDocument;
    nodes.push({
      id: `pipeline:${p.id}`,
      kind: 'pipeline',
      pipeline_id: p.id,
      name: p.name,
      stages: doc.stages,
      has_services: (doc.services ?? []).length > 0,
      crons: crons.get(p.id) ?? [],
      latest_run: latestBy.get(p.id) ?? null,
    });
  }
  return { nodes, edges };
}

/** The newest modification of each git node, in one query. */
async function attachModifications(db: StoreDb, nodes: MaterialNode[]): Promise<void> {
  if (nodes.length === 0) return;
  const rows = await db
    .selectFrom('material_modifications as mm')
    .select(['mm.fingerprint', 'mm.revision', 'mm.author', 'mm.message', 'mm.detected_at'])
    .where(
      'mm.fingerprint',
      'in',
      nodes.map((n) => n.fingerprint),
    )
    .where(({ eb, selectFrom }) =>
      eb(
        'mm.detected_at',
        '=',
        selectFrom('material_modifications as x')
          .select((e) => e.fn.max('x.detected_at').as('d'))
          .whereRef('x.fingerprint', '=', 'mm.fingerprint'),
      ),
    )
    .execute();
  const byFp = new Map(nodes.map((n) => [n.fingerprint, n]));
  for (const r of rows) {
    const node = byFp.get(r.fingerprint);
    if (node && !node.latest_modification)
      node.latest_modification = {
        revision: r.revision,
        author: r.author,
        message: r.message,
        detected_at: r.detected_at,
      };
  }
}
