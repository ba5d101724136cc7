/**
 * Writes a parsed pipeline document back as YAML, for `GET /api/v1/pipelines/{id}/yaml` when only the
 * parsed form exists (`reconstructed: true`). Durations come back in canonical form (`90m` → `1h30m`),
 * defaults are left out, and parsing the output gives the same document again.
 */
import { stringify } from 'yaml';
import type { JobSpec, Material, PipelineDocument, ServiceSpec } from './bundle-types.js';
import { formatDuration } from './durations.js';

type Plain = Record<string, unknown>;

function compact(o: Plain): Plain {
  const out: Plain = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

const dur = (ms: number | undefined) => (ms === undefined ? undefined : formatDuration(ms));

function material(m: Material): Plain {
  if ('git' in m) {
    const { url, branch, on, poll_interval } = m.git;
    const git: Plain = { url, branch, on };
    if (poll_interval !== undefined) git.poll_interval = dur(poll_interval);
    return { git };
  }
  if ('upstream' in m) return { upstream: { ...m.upstream } };
  return { cron: { ...m.cron } };
}

function service(s: ServiceSpec): Plain {
  const ready = s.ready ? compact({ ...s.ready, timeout: dur(s.ready.timeout) }) : undefined;
  return compact({ name: s.name, command: s.command, ready });
}

function job(j: JobSpec): Plain {
  const artifacts = j.artifacts && compact({ ...j.artifacts, expire_in: dur(j.artifacts.expire_in) });
  const approval = j.approval && compact({ ...j.approval, timeout: dur(j.approval.timeout) });
  return compact({
    stage: j.stage,
    script: j.script,
    approval,
    needs: j.needs,
    variables: j.variables,
    secrets: j.secrets,
    services: j.services,
    artifacts,
    cache: j.cache,
    test_reports: j.test_reports,
    matrix: j.matrix,
    timeout: dur(j.timeout),
    retry: j.retry === 0 ? undefined : j.retry,
    tags: j.tags,
  });
}

export function serializePipeline(doc: PipelineDocument): string {
  const jobs: Plain = {};
  for (const [name, j] of Object.entries(doc.jobs)) jobs[name] = job(j);
  const out = compact({
    name: doc.name,
    materials: doc.materials.map(material),
    parameters: doc.parameters,
    variables: doc.variables,
    stages: doc.stages,
    services: doc.services.map(service),
    concurrency: doc.concurrency && (doc.concurrency.group ? { ...doc.concurrency } : doc.concurrency.mode),
  });
  out.jobs = jobs;
  return stringify(out, { lineWidth: 0 });
}
