// A bounded in-process map from pipeline id to its name and its project's slug, so run lists need no join.
// Both never change for an id: apply matches pipelines by name and projects by slug, so a rename is a new
// pipeline (the old one is archived) and a slug is a project's identity. Misses are filled in one query.
import type { StoreDb } from './database.js';

export interface PipelineName {
  pipeline_name: string;
  project_slug: string;
}

export class PipelineNames {
  private readonly names = new Map<string, PipelineName>();

  constructor(private readonly max = 10_000) {}

  async resolve(db: StoreDb, pipelineIds: Iterable<string>): Promise<Map<string, PipelineName>> {
    const out = new Map<string, PipelineName>();
    const missing: string[] = [];
    for (const id of new Set(pipelineIds)) {
      const known = this.names.get(id);
      if (known) out.set(id, known);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const rows = await db
      .selectFrom('pipelines as p')
      .innerJoin('projects as pr', 'pr.id', 'p.project_id')
      .select(['p.id', 'p.name as pipeline_name', 'pr.slug as project_slug'])
      .where('p.id', 'in', missing)
      .execute();
    for (const { id, ...name } of rows) {
      // Oldest entries go first when full; they are refilled by one query if asked for again.
      if (this.names.size >= this.max) this.names.delete(this.names.keys().next().value as string);
      this.names.set(id, name);
      out.set(id, name);
    }
    return out;
  }
}
