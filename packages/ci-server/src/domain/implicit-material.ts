// gocdnext's implicit project material (its "Materials" concept page): in a project whose pipelines live
// in its repository (pipelines as code, triggers/config-repo.ts), a pipeline that names no git material
// and no upstream one is built from that repository — it gets a git material on the repository's branch,
// reacting to the git events its `when.event` lists (push when it lists none; none when it lists only
// manual or cron, which then still check the repository out). Pure: the bundle's documents
// are rewritten and their digests recomputed so that a changed repository address is a new version.
import { pipelineDigest } from './bundle-parse.js';
import type { Bundle, GitEvent } from './bundle-types.js';

const GIT_EVENTS: readonly GitEvent[] = ['push', 'pull_request', 'tag'];

export function withImplicitMaterial(
  bundle: Bundle,
  repo: { url: string; branch: string; pollIntervalMs?: number },
): Bundle {
  for (const p of bundle.pipelines) {
    const doc = p.document;
    if (doc.materials.some((m) => 'git' in m || 'upstream' in m)) continue;
    const events = doc.when?.event ?? [];
    const on = events.length === 0 ? ['push' as GitEvent] : GIT_EVENTS.filter((e) => events.includes(e));
    doc.materials.push({
      git: {
        url: repo.url,
        branch: repo.branch,
        on,
        ...(repo.pollIntervalMs ? { poll_interval: repo.pollIntervalMs } : {}),
      },
    });
    p.digest = pipelineDigest(doc, p.rawYaml);
  }
  return bundle;
}
