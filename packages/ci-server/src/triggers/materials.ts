// Reading the git materials of active pipelines: all of them with their effective poll interval (polling),
// those of a project (sync, VSM), and those of one repository (webhooks). One query each, whatever the
// number of pipelines.
import { sql } from 'kysely';
import { type GitEvent, normaliseGitUrl, parseDuration } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';

export interface GitMaterialRow {
  pipelineId: string;
  projectId: string;
  fingerprint: string;
  url: string;
  branch: string;
  on: GitEvent[];
  /** The material's own poll_interval (ms), null without one. */
  pollIntervalMs: number | null;
  /** The project's override: null none, 0 disabled, else ms. */
  projectIntervalMs: number | null;
}

/** Polling interval that applies to a material: the project's override, else its own; null = not polled. */
export function effectiveInterval(m: GitMaterialRow): number | null {
  if (m.projectIntervalMs !== null) return m.projectIntervalMs > 0 ? m.projectIntervalMs : null;
  return m.pollIntervalMs;
}

function baseQuery(db: StoreDb) {
  return db
    .selectFrom('materials as m')
    .innerJoin('pipelines as p', 'p.id', 'm.pipeline_id')
    .leftJoin('project_poll_settings as s', 's.project_id', 'p.project_id')
    .select(['m.pipeline_id', 'p.project_id', 'm.fingerprint', 'm.config', 's.poll_interval_ms'])
    .where('m.kind', '=', 'git')
    .where('p.archived', '=', 0);
}

type BaseRow = {
  pipeline_id: string;
  project_id: string;
  fingerprint: string;
  config: string;
  poll_interval_ms: number | null;
};

function toRow(r: BaseRow): GitMaterialRow {
  const git = (
    JSON.parse(r.config) as { git: { url: string; branch: string; on?: GitEvent[]; poll_interval?: string } }
  ).git;
  return {
    pipelineId: r.pipeline_id,
    projectId: r.project_id,
    fingerprint: r.fingerprint,
    url: git.url,
    branch: git.branch,
    on: git.on ?? ['push'],
    pollIntervalMs: git.poll_interval ? parseDuration(git.poll_interval) : null,
    projectIntervalMs: r.poll_interval_ms === null ? null : Number(r.poll_interval_ms),
  };
}

export async function allGitMaterials(db: StoreDb): Promise<GitMaterialRow[]> {
  const rows = await baseQuery(db).orderBy('m.fingerprint').execute();
  return rows.map(toRow);
}

export async function projectGitMaterials(db: StoreDb, projectId: string): Promise<GitMaterialRow[]> {
  const rows = await baseQuery(db).where('p.project_id', '=', projectId).orderBy('m.fingerprint').execute();
  return rows.map(toRow);
}

export async function materialsByFingerprint(db: StoreDb, fingerprints: string[]): Promise<GitMaterialRow[]> {
  if (fingerprints.length === 0) return [];
  const rows = await baseQuery(db).where('m.fingerprint', 'in', fingerprints).execute();
  return rows.map(toRow);
}

/** LIKE pattern text with its wildcards escaped (the query uses `\` as the escape character). */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Git materials of a repository, whatever their branch and URL spelling. `repoKeys` are normalised URLs
 * (domain `normaliseGitUrl`). The repository's last path segment narrows the rows in SQL; the exact match on
 * the normalised URL is made here.
 */
export async function materialsOfRepository(db: StoreDb, repoKeys: string[]): Promise<GitMaterialRow[]> {
  const keys = new Set(repoKeys.filter((k) => k !== ''));
  if (keys.size === 0) return [];
  const segments = new Set([...keys].map((k) => k.slice(k.lastIndexOf('/') + 1)).filter((s) => s !== ''));
  if (segments.size === 0) return [];
  const rows = await baseQuery(db)
    .where((eb) =>
      eb.or([...segments].map((seg) => sql<boolean>`m.config like ${`%${likeEscape(seg)}%`} escape '\\'`)),
    )
    .execute();
  return rows.map(toRow).filter((r) => keys.has(normaliseGitUrl(r.url)));
}
