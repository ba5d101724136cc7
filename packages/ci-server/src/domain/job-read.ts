/**
 * Reads and checks the `jobs` of a pipeline document: each job's keys, the script/approval split, matrix,
 * artifacts, caches, services it uses, and then the `needs` graph (existing jobs, this or an earlier stage,
 * no cycles).
 */

import {
  APPROVER_GROUP,
  APPROVER_GROUP_HINT,
  APPROVERS_MAX,
  ARTIFACT_WHEN,
  BUNDLE_KEYS,
  ENV_HINT,
  ENV_NAME,
  GATE_KEYS,
  NAME_MAX,
  NETWORKS,
  nameOpts,
  oneOf,
  REFUSED_KEYS,
  RETRY_MAX,
  readImage,
  readPull,
} from './bundle-rules.js';
import type { ApprovalSpec, ArtifactsSpec, CacheSpec, JobSpec } from './bundle-types.js';
import { readQuorumByLabel } from './gate-quorum.js';
import {
  pluginImage,
  readAgent,
  readIdTokens,
  readNeedsArtifacts,
  readOutputs,
  readParallel,
  readPluginSettings,
  readResources,
  readWhen,
} from './gocdnext-job.js';
import { MAX_MATRIX_COMBINATIONS, matrixSize } from './matrix.js';
import { type Entry, indexPath, type Reader, type YNode } from './yaml-reader.js';

function readMatrix(r: Reader, e: Entry): Record<string, string[]> | null {
  const entries = r.entries(e.node, e.path, 'names to lists of values');
  if (!entries) return null;
  if (entries.length === 0) return r.failNull(e.node, e.path, 'a matrix needs at least one variable');
  const out: Record<string, string[]> = {};
  for (const v of entries) {
    if (!ENV_NAME.test(v.key)) {
      r.fail(v.keyNode, v.path, `"${v.key}" is not a valid matrix variable: use ${ENV_HINT}`);
      continue;
    }
    const values = r.strList(v.node, v.path, { nonEmpty: true, allowEmpty: true });
    if (!values) continue;
    if (new Set(values).size !== values.length) r.fail(v.node, v.path, 'matrix values must be distinct');
    out[v.key] = values;
  }
  if (matrixSize(out) > MAX_MATRIX_COMBINATIONS) {
    r.fail(
      e.node,
      e.path,
      `the matrix has ${matrixSize(out)} combinations; at most ${MAX_MATRIX_COMBINATIONS} are allowed`,
    );
  }
  return out;
}

function readArtifacts(r: Reader, e: Entry): ArtifactsSpec | null {
  const a = r.map(e.node, e.path, BUNDLE_KEYS.artifacts);
  if (!a) return null;
  if (!a.paths && !a.optional) return r.failNull(e.node, `${e.path}.paths`, 'missing required key "paths"');
  // gocdnext's `optional` (published when present) is what `paths` means here: one list.
  const paths = a.paths ? r.strList(a.paths.node, a.paths.path, { nonEmpty: true }) : [];
  const optional = a.optional ? (r.strList(a.optional.node, a.optional.path, { nonEmpty: true }) ?? []) : [];
  const all = [...new Set([...(paths ?? []), ...optional])];
  const out: ArtifactsSpec = { paths: all, when: oneOf(r, a.when, ARTIFACT_WHEN, 'on_success') };
  if (a.expire_in) out.expire_in = r.duration(a.expire_in.node, a.expire_in.path, 1000) ?? undefined;
  return out;
}

function readCache(r: Reader, e: Entry): CacheSpec[] {
  const items = r.seq(e.node, e.path, 'a list of {key, paths}') ?? [];
  const out: CacheSpec[] = [];
  items.forEach((item, i) => {
    const c = r.map(item, indexPath(e.path, i), BUNDLE_KEYS.cache, ['key', 'paths']);
    if (!c?.key || !c.paths) return;
    const key = r.str(c.key.node, c.key.path, { max: 512 });
    const paths = r.strList(c.paths.node, c.paths.path, { nonEmpty: true });
    if (key !== null && paths !== null) out.push({ key, paths });
  });
  return out;
}

/** A gate's wait window: gocdnext writes `never` (or `off`) for a gate that waits until answered. */
function readGateTimeout(r: Reader, e: Entry): number | undefined {
  const v = r.resolve(e.node)?.toJSON();
  if (v === 'never' || v === 'off') return undefined;
  return r.duration(e.node, e.path, 1000) ?? undefined;
}

function readApproval(r: Reader, e: Entry): ApprovalSpec | null {
  const a = r.map(e.node, e.path, BUNDLE_KEYS.approval, [], REFUSED_KEYS.approval);
  if (!a) return null;
  const out: ApprovalSpec = { required: 1 };
  if (a.description)
    out.description = r.str(a.description.node, a.description.path, { allowEmpty: true }) ?? undefined;
  if (a.required) out.required = r.int(a.required.node, a.required.path, 1, 100) ?? 1;
  if (a.timeout) out.timeout = readGateTimeout(r, a.timeout);
  if (a.approvers) {
    const list = r.strList(a.approvers.node, a.approvers.path, { max: 320, allowScalar: true });
    if (list && list.length > APPROVERS_MAX)
      r.fail(a.approvers.node, a.approvers.path, `at most ${APPROVERS_MAX} approvers`);
    if (list && list.length > 0) out.approvers = [...new Set(list)];
  }
  if (a.approver_groups) {
    // `maintainer` and `admin` are roles; any other name is an approver group an admin keeps (its members
    // are read when someone decides, so a group may be defined after the pipeline that names it).
    const e = a.approver_groups;
    const list = r.strList(e.node, e.path, { allowScalar: true });
    if (list && list.length > APPROVERS_MAX)
      r.fail(e.node, e.path, `at most ${APPROVERS_MAX} approver groups`);
    const bad = list?.find((g) => !APPROVER_GROUP.test(g));
    if (bad !== undefined)
      r.fail(e.node, e.path, `"${bad}" is not an approver group name: ${APPROVER_GROUP_HINT}`);
    else if (list && list.length > 0) out.approver_groups = [...new Set(list)];
  }
  if (a.allow_self_approval) {
    const e = a.allow_self_approval;
    const v = r.resolve(e.node)?.toJSON();
    if (typeof v !== 'boolean') r.fail(e.node, e.path, 'must be true or false');
    else if (v) out.allow_self_approval = true;
  }
  if (a.quorum_by_label) {
    const map = readQuorumByLabel(r, a.quorum_by_label);
    if (map && Object.keys(map).length > 0) out.quorum_by_label = map;
  }
  return out;
}

/**
 * `uses` + `with` (or gocdnext's older `image` + `settings`): the job runs the plugin image's own
 * entrypoint, configured through PLUGIN_* variables; the job's `variables` win over them.
 */
function readPlugin(r: Reader, f: Record<string, Entry>, job: JobSpec): Record<string, string> {
  if (f.uses) {
    for (const other of ['script', 'image', 'settings'] as const)
      if (f[other])
        r.fail(
          f[other].keyNode,
          f[other].path,
          `"uses" and "${other}" are exclusive: a plugin runs its image's own entrypoint`,
        );
    const uses = r.str(f.uses.node, f.uses.path, { max: 512 });
    if (uses !== null) {
      const image = pluginImage(uses);
      if (image === null)
        r.fail(
          f.uses.node,
          f.uses.path,
          `"${uses}" is not a plugin reference: write <image>@<tag> or gocdnext/<name>@v1`,
        );
      else {
        job.uses = uses;
        job.image = image;
      }
    }
  } else if (f.with) {
    r.fail(f.with.keyNode, f.with.path, '"with" configures a plugin: it needs "uses"');
  }
  if (f.image) {
    const image = readImage(r, f.image);
    if (image !== undefined && !f.uses) job.image = image;
  }
  if (f.settings && (f.script || !f.image))
    r.fail(
      f.settings.keyNode,
      f.settings.path,
      '"settings" configures a plugin image: it needs "image" and no "script"',
    );
  const settings = f.with ?? f.settings;
  return settings ? readPluginSettings(r, settings) : {};
}

export interface JobRead {
  spec: JobSpec;
  stageIndex: number;
  needs: { name: string; node: YNode; path: string }[];
  keyNode: YNode;
  path: string;
}

export function readJob(
  r: Reader,
  e: Entry,
  stages: string[],
  services: Set<string>,
  defaultStage?: string,
): JobRead | null {
  r.str(e.keyNode, e.path, nameOpts);
  const f = r.map(e.node, e.path, BUNDLE_KEYS.job, defaultStage ? [] : ['stage'], REFUSED_KEYS.job);
  if (!f) return null;
  const stage = f.stage ? r.str(f.stage.node, f.stage.path) : (defaultStage ?? null);
  const stageIndex = stage === null ? -1 : stages.indexOf(stage);
  if (stage !== null && stageIndex < 0) {
    r.fail(f.stage!.node, f.stage!.path, `stage "${stage}" is not declared in stages (${stages.join(', ')})`);
  }
  // Key order of the YAML format, so stored documents read like the files.
  const job: JobSpec = {
    stage: stage ?? '',
    script: undefined,
    approval: undefined,
    needs: [],
    variables: {},
    secrets: [],
    services: [],
    artifacts: undefined,
    cache: [],
    test_reports: [],
    matrix: undefined,
    timeout: undefined,
    retry: 0,
    tags: [],
  };
  const plugin = f.uses ?? (f.settings && !f.script ? f.settings : undefined);
  if (f.script && f.approval) {
    r.fail(
      f.approval.keyNode,
      f.approval.path,
      '"approval" and "script" are exclusive: a job is a build job or a manual gate',
    );
  } else if (!f.script && !f.approval && !plugin) {
    r.fail(
      e.node,
      e.path,
      'a job needs "script" (a build job), "uses" (a plugin) or "approval" (a manual gate)',
    );
  }
  const pluginSettings = readPlugin(r, f, job);
  if (f.approval && !f.script) {
    for (const key of Object.keys(f).filter((k) => !GATE_KEYS.includes(k))) {
      r.fail(
        f[key].keyNode,
        f[key].path,
        `a manual gate (approval) cannot have "${key}"; only ${GATE_KEYS.join(', ')}`,
      );
    }
  }
  if (f.script)
    job.script = r.strList(f.script.node, f.script.path, { allowScalar: true, nonEmpty: true }) ?? [];
  if (f.approval) job.approval = readApproval(r, f.approval) ?? { required: 1 };
  // gocdnext's form of a gate's window is the job's `timeout` (its approval reference): stored as the gate's.
  if (job.approval && f.timeout) {
    const inner = r.resolve(f.approval.node);
    if (inner && 'has' in inner && (inner as { has(k: string): boolean }).has('timeout'))
      r.fail(f.timeout.keyNode, f.timeout.path, '"timeout" and "approval.timeout" are one setting: keep one');
    const t = readGateTimeout(r, f.timeout);
    if (t === undefined) delete job.approval.timeout;
    else job.approval.timeout = t;
  }
  const needs: JobRead['needs'] = [];
  if (f.needs) {
    const names = r.strList(f.needs.node, f.needs.path) ?? [];
    for (const [i, name] of names.entries())
      needs.push({ name, node: r.item(f.needs.node, i), path: indexPath(f.needs.path, i) });
    job.needs = [...new Set(names)];
  }
  if (f.variables) job.variables = r.strMap(f.variables.node, f.variables.path, ENV_NAME, ENV_HINT) ?? {};
  if (Object.keys(pluginSettings).length > 0) job.variables = { ...pluginSettings, ...job.variables };
  if (f.secrets) {
    job.secrets =
      r.strList(f.secrets.node, f.secrets.path, {
        max: NAME_MAX,
        pattern: ENV_NAME,
        patternHint: ENV_HINT,
      }) ?? [];
  }
  if (f.services) {
    const names = r.strList(f.services.node, f.services.path) ?? [];
    names.forEach((name, i) => {
      if (!services.has(name)) {
        const known = services.size ? [...services].join(', ') : 'none declared';
        r.fail(
          r.item(f.services!.node, i),
          indexPath(f.services!.path, i),
          `service "${name}" is not declared in services (${known})`,
        );
      }
    });
    job.services = names;
  }
  if (f.artifacts) job.artifacts = readArtifacts(r, f.artifacts) ?? undefined;
  if (f.cache) job.cache = readCache(r, f.cache);
  if (f.test_reports) job.test_reports = r.strList(f.test_reports.node, f.test_reports.path) ?? [];
  if (f.matrix && f.parallel)
    r.fail(
      f.parallel.keyNode,
      f.parallel.path,
      '"matrix" and "parallel" are two spellings of one key: keep one',
    );
  if (f.matrix) job.matrix = readMatrix(r, f.matrix) ?? undefined;
  else if (f.parallel) job.matrix = readParallel(r, f.parallel) ?? undefined;
  if (f.timeout && !job.approval) job.timeout = r.duration(f.timeout.node, f.timeout.path, 1000) ?? undefined;
  if (f.retry) job.retry = r.int(f.retry.node, f.retry.path, 0, RETRY_MAX) ?? 0;
  if (f.tags) job.tags = r.strList(f.tags.node, f.tags.path) ?? [];
  if (f.agent) job.tags.push(...readAgent(r, f.agent));
  if (f.docker) {
    const d = r.resolve(f.docker.node);
    const v = d && 'value' in d ? (d as { value: unknown }).value : undefined;
    if (typeof v !== 'boolean') r.fail(f.docker.node, f.docker.path, 'must be true or false');
    else if (v) {
      job.docker = true;
      job.tags.push('docker');
    }
  }
  job.tags = [...new Set(job.tags)];
  if (f.when) job.when = readWhen(r, f.when) ?? undefined;
  if (f.needs_artifacts) job.needs_artifacts = readNeedsArtifacts(r, f.needs_artifacts);
  if (f.outputs) job.outputs = readOutputs(r, f.outputs);
  if (f.resources) job.resources = readResources(r, f.resources) ?? undefined;
  if (f.id_tokens) {
    job.id_tokens = readIdTokens(r, f.id_tokens);
    // gocdnext refuses a name that is also a variable, secret or matrix dimension: `$NAME` would be ambiguous.
    for (const name of Object.keys(job.id_tokens)) {
      const clash = name in job.variables || job.secrets.includes(name) || name in (job.matrix ?? {});
      if (clash)
        r.fail(
          f.id_tokens.node,
          `${f.id_tokens.path}.${name}`,
          `"${name}" is also a variable, secret or matrix dimension of the job: the token needs a name of its own`,
        );
    }
  }
  if (f.pull) job.pull = readPull(r, f.pull);
  if (f.network) job.network = oneOf(r, f.network, NETWORKS, 'host');
  return {
    spec: JSON.parse(JSON.stringify(job)) as JobSpec,
    stageIndex,
    needs,
    keyNode: e.keyNode,
    path: e.path,
  };
}

/** `needs`: existing jobs, of this or an earlier stage, not itself, and no cycles. */
export function checkNeeds(r: Reader, jobs: Map<string, JobRead>): void {
  for (const [name, job] of jobs) {
    for (const need of job.needs) {
      const target = jobs.get(need.name);
      if (need.name === name) r.fail(need.node, need.path, `job "${name}" cannot need itself`);
      else if (!target) r.fail(need.node, need.path, `needs unknown job "${need.name}"`);
      else if (target.stageIndex > job.stageIndex && job.stageIndex >= 0) {
        r.fail(
          need.node,
          need.path,
          `needs "${need.name}" of the later stage "${target.spec.stage}"; only jobs of this or an earlier stage can be needed`,
        );
      }
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): void => {
    state.set(name, 'visiting');
    stack.push(name);
    for (const need of jobs.get(name)!.needs) {
      if (need.name === name || !jobs.has(need.name)) continue;
      const s = state.get(need.name);
      if (s === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(need.name)), need.name].join(' -> ');
        r.fail(need.node, need.path, `needs form a cycle: ${cycle}`);
      } else if (s === undefined) visit(need.name);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const name of jobs.keys()) if (!state.has(name)) visit(name);
}
