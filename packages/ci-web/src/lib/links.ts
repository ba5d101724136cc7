// Addresses of UI pages that several pages and components link to (a run's address is beside the runs table).

/** The page of one pipeline of a project: its definition, run history and badge. */
export function pipelineHref(slug: string, name: string): string {
  return `/projects/${encodeURIComponent(slug)}/pipelines/${encodeURIComponent(name)}`;
}
