/**
 * Reads and validates ONE pipeline document (spec/pipeline-yaml.md, "A pipeline document") from a YAML
 * node: shape, unknown keys, names, materials, parameters, variables, stages, services, then its jobs
 * (job-read.ts). Checks that span pipelines (unique names, upstream materials) live in bundle-parse.ts.
 */

import {
  BUNDLE_KEYS,
  ENV_HINT,
  ENV_NAME,
  GIT_EVENTS,
  nameOpts,
  oneOf,
  REFUSED_KEYS,
  readImage,
  readPull,
  SERVICE_NAME,
  UPSTREAM_STATUS,
} from './bundle-rules.js';
import type {
  GitMaterial,
  Material,
  PipelineDocument,
  ServiceReady,
  ServiceSpec,
  UpstreamMaterial,
} from './bundle-types.js';
import { readConcurrency } from './concurrency.js';
import { validateCron } from './cron.js';
import { normaliseBranch, normaliseGitUrl } from './fingerprint.js';
import { readWhen } from './gocdnext-job.js';
import { checkGocdnextJobs, inferStages, readManual } from './gocdnext-pipeline.js';
import { resolveExtends } from './job-extends.js';
import { checkNeeds, type JobRead, readJob } from './job-read.js';
import { checkReservedNames, readNotifications } from './notifications.js';
import { type Entry, indexPath, type Reader, type YNode } from './yaml-reader.js';

export interface UpstreamRef {
  material: UpstreamMaterial;
  path: string;
  node: YNode;
  stageNode: YNode;
}

export interface ReadPipeline {
  document: PipelineDocument;
  nameNode: YNode;
  upstreams: UpstreamRef[];
}

/** Git materials whose `on` was not written: gocdnext's pipeline `when.event` decides it for them. */
const defaultOn = new WeakSet<GitMaterial>();

function readMaterial(
  r: Reader,
  raw: YNode,
  path: string,
  self: string,
  ups: UpstreamRef[],
): Material | 'manual' | null {
  const m = r.map(raw, path, BUNDLE_KEYS.material);
  if (!m) return null;
  const kinds = Object.keys(m);
  if (kinds.length !== 1) {
    return r.failNull(
      raw,
      path,
      `a material has exactly one of git, upstream, cron, manual (found ${kinds.length})`,
    );
  }
  if (m.manual) return readManual(r, m.manual);
  if (m.git) {
    const g = r.map(m.git.node, m.git.path, BUNDLE_KEYS.git, ['url'], REFUSED_KEYS.git);
    if (!g) return null;
    const url = g.url ? r.str(g.url.node, g.url.path, { max: 2048 }) : null;
    const branch = g.branch ? r.str(g.branch.node, g.branch.path, { max: 255 }) : 'main';
    const git: GitMaterial = { url: url ?? '', branch: normaliseBranch(branch ?? 'main'), on: ['push'] };
    if (!g.on) defaultOn.add(git);
    if (g.on) {
      const events = r.strList(g.on.node, g.on.path, { allowScalar: true }) ?? [];
      events.forEach((ev, i) => {
        if (!(GIT_EVENTS as readonly string[]).includes(ev)) {
          r.fail(
            r.item(g.on!.node, i),
            indexPath(g.on!.path, i),
            `"${ev}" must be one of ${GIT_EVENTS.join(', ')}`,
          );
        }
      });
      git.on = GIT_EVENTS.filter((ev) => events.includes(ev));
    }
    if (g.poll_interval) {
      const ms = r.duration(g.poll_interval.node, g.poll_interval.path, 1000);
      if (ms !== null) git.poll_interval = ms;
    }
    if (g.auto_register_webhook) {
      const n = r.resolve(g.auto_register_webhook.node);
      const v = n && 'value' in n ? (n as { value: unknown }).value : undefined;
      if (typeof v !== 'boolean')
        r.fail(g.auto_register_webhook.node, g.auto_register_webhook.path, 'must be true or false');
      else if (v) git.auto_register_webhook = true;
    }
    return { git };
  }
  if (m.upstream) {
    const u = r.map(m.upstream.node, m.upstream.path, BUNDLE_KEYS.upstream, ['pipeline', 'stage']);
    if (!u?.pipeline || !u.stage) return null;
    const pipeline = r.str(u.pipeline.node, u.pipeline.path, nameOpts);
    const stage = r.str(u.stage.node, u.stage.path, nameOpts);
    const status = oneOf(r, u.status, UPSTREAM_STATUS, 'success');
    if (pipeline === null || stage === null) return null;
    if (pipeline === self)
      return r.failNull(u.pipeline.node, u.pipeline.path, 'a pipeline cannot be its own upstream');
    const upstream: UpstreamMaterial = { pipeline, stage, status };
    ups.push({ material: upstream, path: u.pipeline.path, node: u.pipeline.node, stageNode: u.stage.node });
    return { upstream };
  }
  const c = r.map(m.cron!.node, m.cron!.path, BUNDLE_KEYS.cron, ['expression']);
  if (!c?.expression) return null;
  const expression = r.str(c.expression.node, c.expression.path);
  if (expression === null) return null;
  const problem = validateCron(expression);
  if (problem) return r.failNull(c.expression.node, c.expression.path, problem);
  return { cron: { expression: expression.trim() } };
}

/**
 * A container job reaches only containers (a process on the host's loopback is out of its network), and a
 * sandboxed job without network reaches no service at all.
 */
function checkEngines(r: Reader, jobs: Map<string, JobRead>, services: ServiceSpec[]): void {
  for (const [name, job] of jobs) {
    const used = services.filter((s) => job.spec.services.includes(s.name));
    if (job.spec.image) {
      for (const s of used.filter((x) => !x.image))
        r.fail(
          job.keyNode,
          `${job.path}.services`,
          `job "${name}" has an image, so its service "${s.name}" needs an image too`,
        );
    } else if (job.spec.network === 'none' && used.length > 0) {
      r.fail(
        job.keyNode,
        `${job.path}.network`,
        `job "${name}" has network none and no image: it cannot reach its services`,
      );
    }
  }
}

function readService(r: Reader, raw: YNode, path: string): ServiceSpec | null {
  const s = r.map(raw, path, BUNDLE_KEYS.service, ['name'], REFUSED_KEYS.service);
  if (!s?.name) return null;
  if (!s.command && !s.image) {
    r.fail(
      raw,
      `${path}.command`,
      'missing required key "command" (or "image": a container running its own command)',
    );
    return null;
  }
  const name = r.str(s.name.node, s.name.path, {
    pattern: SERVICE_NAME,
    patternHint: 'letters, digits, _ . - (at most 63, starting with a letter or digit)',
  });
  const command = s.command ? r.strList(s.command.node, s.command.path, { nonEmpty: true }) : [];
  if (name === null || command === null) return null;
  const service: ServiceSpec = { name, command };
  if (s.image) service.image = readImage(r, s.image);
  if (s.pull) service.pull = readPull(r, s.pull);
  if (s.ready) {
    const rd = r.map(s.ready.node, s.ready.path, BUNDLE_KEYS.ready);
    if (!rd) return null;
    const ready: ServiceReady = {};
    const probes = (['tcp', 'http', 'command'] as const).filter((k) => rd[k]);
    if (probes.length !== 1) {
      r.fail(
        s.ready.node,
        s.ready.path,
        `ready needs exactly one of tcp, http, command (found ${probes.length})`,
      );
    }
    if (rd.tcp) ready.tcp = r.int(rd.tcp.node, rd.tcp.path, 1, 65535) ?? undefined;
    if (rd.http) {
      const url = r.str(rd.http.node, rd.http.path, {
        pattern: /^https?:\/\/\S+$/,
        patternHint: 'an http:// or https:// URL',
      });
      if (url !== null) ready.http = url;
    }
    if (rd.command)
      ready.command = r.strList(rd.command.node, rd.command.path, { nonEmpty: true }) ?? undefined;
    if (rd.timeout) ready.timeout = r.duration(rd.timeout.node, rd.timeout.path, 1000) ?? undefined;
    service.ready = JSON.parse(JSON.stringify(ready)) as ServiceReady;
  }
  return service;
}

/**
 * `fallbackName`: a file's name without its extension, the pipeline's name when the document has none
 * (gocdnext's rule); without it `name` is required.
 */
export function readPipeline(
  r: Reader,
  raw: YNode,
  path: string,
  fallbackName?: string,
): ReadPipeline | null {
  const required = fallbackName ? ['jobs'] : ['name', 'jobs'];
  const p = r.map(raw, path, BUNDLE_KEYS.pipeline, required, REFUSED_KEYS.pipeline);
  if (!p) return null;
  const name = p.name ? (r.str(p.name.node, p.name.path, nameOpts) ?? '') : (fallbackName ?? '');
  const doc: PipelineDocument = {
    name,
    materials: [],
    parameters: {},
    variables: {},
    stages: [],
    services: [],
    jobs: {},
  };
  const upstreams: UpstreamRef[] = [];
  let manual = false;
  if (p.materials) {
    const seen = new Map<string, number>();
    (r.seq(p.materials.node, p.materials.path, 'a list of materials') ?? []).forEach((item, i) => {
      const mPath = indexPath(p.materials!.path, i);
      const m = readMaterial(r, item, mPath, name, upstreams);
      if (m === 'manual') manual = true;
      if (!m || m === 'manual') return;
      const identity =
        'git' in m ? JSON.stringify([normaliseGitUrl(m.git.url), m.git.branch]) : JSON.stringify(m);
      if (seen.has(identity)) r.fail(item, mPath, `duplicate of materials[${seen.get(identity)}]`);
      else seen.set(identity, i);
      doc.materials.push(m);
    });
  }
  if (p.parameters) doc.parameters = r.strMap(p.parameters.node, p.parameters.path, ENV_NAME, ENV_HINT) ?? {};
  if (p.variables) doc.variables = r.strMap(p.variables.node, p.variables.path, ENV_NAME, ENV_HINT) ?? {};
  if (p.stages) {
    const items = r.seq(p.stages.node, p.stages.path, 'a non-empty list of stage names') ?? [];
    if (items.length === 0) r.fail(p.stages.node, p.stages.path, 'must list at least one stage');
    items.forEach((item, i) => {
      const s = r.str(item, indexPath(p.stages!.path, i), nameOpts);
      if (s === null) return;
      if (doc.stages.includes(s)) r.fail(item, indexPath(p.stages!.path, i), `stage "${s}" is listed twice`);
      else doc.stages.push(s);
    });
  }
  if (p.services) {
    (r.seq(p.services.node, p.services.path, 'a list of services') ?? []).forEach((item, i) => {
      const s = readService(r, item, indexPath(p.services!.path, i));
      if (!s) return;
      if (doc.services.some((x) => x.name === s.name)) {
        r.fail(item, indexPath(p.services!.path, i), `service "${s.name}" is declared twice`);
      } else doc.services.push(s);
    });
  }
  if (p.concurrency) {
    const concurrency = readConcurrency(r, p.concurrency);
    if (concurrency) doc.concurrency = concurrency;
  }
  if (p.when) doc.when = readWhen(r, p.when) ?? undefined;
  const gitEvents = GIT_EVENTS.filter((ev) => doc.when?.event.includes(ev));
  if (gitEvents.length > 0)
    for (const m of doc.materials) if ('git' in m && defaultOn.has(m.git)) m.git.on = gitEvents;
  if (manual) {
    if (doc.when?.event.some((e) => e !== 'manual'))
      r.fail(
        p.when!.node,
        p.when!.path,
        'a manual material means only manual runs: when.event can only be [manual]',
      );
    doc.when = { event: ['manual'], branch: doc.when?.branch ?? [], paths: doc.when?.paths ?? [] };
  }
  const jobs = new Map<string, JobRead>();
  if (p.jobs) {
    const all = r.entries(p.jobs.node, p.jobs.path, 'job names to jobs') ?? [];
    const entries: Entry[] = resolveExtends(r, all);
    if (entries.length === 0 && r.resolve(p.jobs.node))
      r.fail(p.jobs.node, p.jobs.path, 'must declare at least one job');
    // gocdnext fragments without `stages`: the stages the jobs name, ordered so that needs point backwards.
    const inferred = p.stages ? null : inferStages(r, entries, p.jobs.path);
    if (inferred) doc.stages = inferred.stages;
    const services = new Set(doc.services.map((s) => s.name));
    for (const e of entries) {
      const job = readJob(r, e, doc.stages, services, inferred?.defaultStage);
      if (job) jobs.set(e.key, job);
    }
    checkNeeds(r, jobs);
    checkGocdnextJobs(r, jobs, upstreams, doc.variables);
    checkEngines(r, jobs, doc.services);
    for (const [jobName, job] of jobs) doc.jobs[jobName] = job.spec;
  }
  if (p.notifications) {
    const notifications = readNotifications(r, p.notifications);
    if (notifications) doc.notifications = notifications;
    checkReservedNames(r, doc, p.notifications);
  }
  return { document: doc, nameNode: p.name?.node, upstreams };
}
