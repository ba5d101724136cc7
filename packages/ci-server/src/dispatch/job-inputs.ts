// What a gocdnext job takes from jobs before it, read at dispatch (docs/ci-gocdnext.md): the stored
// artifacts its `needs_artifacts` entries select — of this run, or with `from_pipeline` of the upstream run
// that triggered it (a rerun looks at the run it reruns) — and the outputs its `${{ needs.J.outputs.A }}`
// references read (the latest successful attempt of J in this run). The rules are in gocdnext-env.ts; a job
// whose inputs are missing gets a reason and fails before any agent sees it, as in gocdnext.
import { cellKey, type JobSpec, type PipelineDocument } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import {
  outputSources,
  outputsKey,
  resolveOutputs,
  type SelectedArtifact,
  type StoredArtifact,
  selectArtifacts,
} from './gocdnext-env.js';

export interface JobInputs {
  neededArtifacts: SelectedArtifact[];
  /** The job's variables with output references replaced. */
  variables: Record<string, string>;
  masks: string[];
}

const MAX_RERUN_HOPS = 20;

export class JobInputReader {
  constructor(private readonly db: StoreDb) {}

  async read(runId: string, doc: PipelineDocument, job: JobSpec): Promise<JobInputs | string> {
    const neededArtifacts: SelectedArtifact[] = [];
    for (const entry of job.needs_artifacts ?? []) {
      let sourceRun = runId;
      let scope = 'this run';
      if (entry.from_pipeline !== undefined) {
        const up = await this.upstreamRun(runId, entry.from_pipeline);
        if ('error' in up) return up.error;
        sourceRun = up.id;
        scope = `the upstream run of pipeline "${entry.from_pipeline}"`;
      }
      const rows = await this.readyArtifacts(sourceRun, entry.from_job);
      const picked = selectArtifacts(entry, rows, scope);
      if (typeof picked === 'string') return picked;
      neededArtifacts.push(...picked);
    }
    const sources = outputSources(job);
    if (sources.size === 0) return { neededArtifacts, variables: job.variables, masks: [] };
    const outputs = await this.outputs(runId, [...sources]);
    const masked = (j: string) =>
      new Set(
        Object.entries(doc.jobs[j]?.outputs ?? {})
          .filter(([, o]) => o.masked)
          .map(([alias]) => alias),
      );
    const resolved = resolveOutputs(job.variables, outputs, masked, (j) => doc.jobs[j]?.matrix);
    if (typeof resolved === 'string') return resolved;
    return { neededArtifacts, ...resolved };
  }

  private async readyArtifacts(runId: string, jobName: string): Promise<StoredArtifact[]> {
    return this.db
      .selectFrom('artifacts')
      .select(['id', 'job_name', 'path', 'size_bytes', 'content_sha256'])
      .where('run_id', '=', runId)
      .where('job_name', '=', jobName)
      .where('status', '=', 'ready')
      .orderBy('path')
      .execute();
  }

  /** The run of `pipeline` whose success started this run (its fan-in claim), or why there is none. */
  private async upstreamRun(runId: string, pipeline: string): Promise<{ id: string } | { error: string }> {
    let id: string | null = runId;
    for (let hop = 0; id && hop < MAX_RERUN_HOPS; hop++) {
      const run = await this.db
        .selectFrom('runs')
        .select(['id', 'cause', 'rerun_of'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!run) break;
      if (run.cause === 'upstream') {
        const claim = await this.db
          .selectFrom('trigger_claims')
          .select('detail')
          .where('run_id', '=', run.id)
          .where('source', '=', 'upstream')
          .executeTakeFirst();
        const ids = claim ? (JSON.parse(claim.detail) as string[]) : [];
        if (ids.length === 0) break;
        const match = await this.db
          .selectFrom('runs as r')
          .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
          .select(['r.id'])
          .where('r.id', 'in', ids)
          .where('p.name', '=', pipeline)
          .executeTakeFirst();
        if (match) return { id: match.id };
        return { error: `needs_artifacts: this run was not triggered by a run of pipeline "${pipeline}"` };
      }
      id = run.rerun_of;
    }
    return {
      error: `needs_artifacts: from_pipeline "${pipeline}" reads the run of that pipeline which triggered this one, and this run was not triggered by one`,
    };
  }

  private async outputs(runId: string, jobs: string[]) {
    const rows = await this.db
      .selectFrom('job_runs')
      .select(['name', 'matrix', 'outputs', 'attempt'])
      .where('run_id', '=', runId)
      .where('name', 'in', jobs)
      .where('status', '=', 'success')
      .orderBy('attempt', 'desc')
      .execute();
    // Keyed by job, or job and matrix cell: each cell of a matrix job keeps its own outputs.
    const values = new Map<string, Record<string, string>>();
    for (const row of rows) {
      const key = outputsKey(row.name, cellKey(JSON.parse(row.matrix) as Record<string, string>));
      if (!values.has(key)) values.set(key, row.outputs ? JSON.parse(row.outputs) : {});
    }
    return values;
  }
}
