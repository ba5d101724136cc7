// Applying a parsed pipeline bundle to the store, in one transaction: the project is created or updated,
// each pipeline of the bundle is created or updated (a new immutable version when its digest changes, its
// materials and their fingerprints replaced), and pipelines missing from the bundle are archived with their
// history kept. Applying the same bundle again writes nothing: no new version, no changed timestamp.
import { badRequest } from '@app/kit';
import {
  type Bundle,
  type BundlePipeline,
  cronFingerprint,
  formatDuration,
  gitFingerprint,
  type Material,
  upstreamFingerprint,
} from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import type { MaterialsTable, PipelinesTable } from '../store/schema.js';

type Trx = StoreDb;

export interface ApplyResult {
  project_slug: string;
  pipelines_applied: number;
  /** What was accepted but not done (gocdnext's best-effort webhook registration); absent when none. */
  warnings?: string[];
}

/** gocdnext's `auto_register_webhook`: like gocdnext without a host app installation, registered nowhere. */
function applyWarnings(bundle: Bundle): string[] {
  const out: string[] = [];
  for (const p of bundle.pipelines)
    p.document.materials.forEach((m, i) => {
      if ('git' in m && m.git.auto_register_webhook)
        out.push(
          `pipeline "${p.document.name}" materials[${i}].git.auto_register_webhook: no webhook was registered (this control plane has no host app installation); add one for POST /api/webhooks/<host> in the repository settings`,
        );
    });
  return out;
}

/** A material as the API shows it: its YAML form (durations as text), its kind and its fingerprint. */
export function materialRow(
  projectSlug: string,
  pipelineId: string,
  m: Material,
  position: number,
): MaterialsTable {
  let kind: MaterialsTable['kind'];
  let fingerprint: string;
  let config: Record<string, unknown>;
  if ('git' in m) {
    kind = 'git';
    fingerprint = gitFingerprint(m.git.url, m.git.branch);
    const { poll_interval, ...rest } = m.git;
    config = {
      git: poll_interval === undefined ? rest : { ...rest, poll_interval: formatDuration(poll_interval) },
    };
  } else if ('upstream' in m) {
    kind = 'upstream';
    const u = m.upstream;
    fingerprint = upstreamFingerprint(projectSlug, u.pipeline, u.stage, u.status);
    config = { upstream: { ...u } };
  } else {
    kind = 'cron';
    fingerprint = cronFingerprint(m.cron.expression);
    config = { cron: { ...m.cron } };
  }
  return {
    id: newId(),
    pipeline_id: pipelineId,
    position,
    kind,
    fingerprint,
    config: JSON.stringify(config),
  };
}

/**
 * An upstream material naming a pipeline outside the bundle can never fire (everything not in the bundle
 * is archived), so it is a mistake in the bundle: 400 naming where it is.
 */
function refuseExternalUpstreams(bundle: Bundle): void {
  if (bundle.externalUpstreams.length === 0) return;
  const lines = bundle.externalUpstreams.map(
    (u) =>
      `${u.path}: pipeline "${u.upstream}" is not in the bundle (an upstream material names a pipeline of the same bundle)`,
  );
  throw badRequest(`The bundle is not valid: ${lines.join('; ')}`);
}

async function writeVersion(trx: Trx, pipelineId: string, p: BundlePipeline, now: string): Promise<string> {
  await trx
    .insertInto('pipeline_versions')
    .values({
      id: newId(),
      pipeline_id: pipelineId,
      digest: p.digest,
      definition: JSON.stringify(p.document),
      raw_yaml: p.rawYaml,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['pipeline_id', 'digest']).doNothing())
    .execute();
  const row = await trx
    .selectFrom('pipeline_versions')
    .select('id')
    .where('pipeline_id', '=', pipelineId)
    .where('digest', '=', p.digest)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function replaceMaterials(
  trx: Trx,
  slug: string,
  pipelineId: string,
  p: BundlePipeline,
): Promise<void> {
  await trx.deleteFrom('materials').where('pipeline_id', '=', pipelineId).execute();
  const rows = p.document.materials.map((m, i) => materialRow(slug, pipelineId, m, i));
  if (rows.length > 0) await trx.insertInto('materials').values(rows).execute();
}

/** Creates or updates one pipeline; true when anything was written. */
async function applyPipeline(
  trx: Trx,
  project: { id: string; slug: string },
  existing: PipelinesTable | undefined,
  p: BundlePipeline,
  position: number,
  now: string,
): Promise<boolean> {
  const content = {
    definition: JSON.stringify(p.document),
    raw_yaml: p.rawYaml,
    raw_reconstructed: p.rawReconstructed ? 1 : 0,
    digest: p.digest,
  };
  if (!existing) {
    const id = newId();
    // The version row refers to the pipeline, the pipeline to its version: insert with a placeholder first.
    await trx
      .insertInto('pipelines')
      .values({
        id,
        project_id: project.id,
        name: p.document.name,
        position,
        version_id: '',
        ...content,
        archived: 0,
        counter: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const versionId = await writeVersion(trx, id, p, now);
    await trx.updateTable('pipelines').set({ version_id: versionId }).where('id', '=', id).execute();
    await replaceMaterials(trx, project.slug, id, p);
    return true;
  }
  const contentChanged = existing.digest !== p.digest;
  if (!contentChanged && existing.archived === 0 && existing.position === position) return false;
  const set: Partial<PipelinesTable> = { archived: 0, position, updated_at: now };
  if (contentChanged) {
    Object.assign(set, content, { version_id: await writeVersion(trx, existing.id, p, now) });
    await replaceMaterials(trx, project.slug, existing.id, p);
  }
  await trx.updateTable('pipelines').set(set).where('id', '=', existing.id).execute();
  return true;
}

export async function applyBundle(db: StoreDb, bundle: Bundle, postgres: boolean): Promise<ApplyResult> {
  refuseExternalUpstreams(bundle);
  const spec = bundle.project;
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    // Create-if-missing without a race: concurrent applies of a new slug meet at the unique index, and the
    // row lock below makes applies of one project take turns on PostgreSQL.
    const inserted = await trx
      .insertInto('projects')
      .values({
        id: newId(),
        slug: spec.slug,
        name: spec.name,
        description: spec.description,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst();
    let q = trx.selectFrom('projects').selectAll().where('slug', '=', spec.slug);
    if (postgres) q = q.forUpdate();
    const project = await q.executeTakeFirstOrThrow();
    let changed = inserted !== undefined;
    const existing = await trx
      .selectFrom('pipelines')
      .selectAll()
      .where('project_id', '=', project.id)
      .execute();
    const byName = new Map(existing.map((p) => [p.name, p]));
    for (const [i, p] of bundle.pipelines.entries()) {
      if (await applyPipeline(trx, project, byName.get(p.document.name), p, i, now)) changed = true;
      byName.delete(p.document.name);
    }
    const toArchive = [...byName.values()].filter((p) => p.archived === 0).map((p) => p.id);
    if (toArchive.length > 0) {
      await trx
        .updateTable('pipelines')
        .set({ archived: 1, updated_at: now })
        .where('id', 'in', toArchive)
        .execute();
      changed = true;
    }
    if (project.name !== spec.name || project.description !== spec.description) changed = true;
    if (changed && !inserted) {
      await trx
        .updateTable('projects')
        .set({ name: spec.name, description: spec.description, updated_at: now })
        .where('id', '=', project.id)
        .execute();
    }
    const warnings = applyWarnings(bundle);
    return {
      project_slug: project.slug,
      pipelines_applied: bundle.pipelines.length,
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  });
}
