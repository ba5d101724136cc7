// Reads the parsed PORTAL_DATASOURCES document into managed datasources. Pure: every problem is collected
// with the datasource and key it concerns (`datasource "prod": policy.approvalsRequired must be 1 or 2`),
// unknown keys are refused, and a datasource whose `${ENV}` references are not all set is kept aside as
// unavailable (with the reason) while the others load.
import { CONNECTION_FIELDS } from '../providers/identity.js';
import { engineDescriptor } from '../providers/registry.js';
import { interpolate } from './interpolate.js';
import { describe, isObj, type Obj, Reader } from './reader.js';
import {
  type DatasourcePolicy,
  ENGINE_TYPES,
  ENVIRONMENTS,
  type EngineType,
  MASKING_RULES,
  type ManagedConnectionFields,
  type ManagedEntry,
  SESSION_ROLES,
  type SessionRole,
} from './types.js';

export interface ReadResult {
  entries: ManagedEntry[];
  /** Problems that make the whole file invalid. */
  errors: string[];
}

const ID = /^[a-z0-9-]{1,64}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const HIDDEN_OBJECT = /^[^.\s*]+\.([^.\s*]+|\*)$/;
const MASKED_COLUMN = /^([^.\s*]+|\*)\.[^.\s*]+$/;

// Display keys beside the fields a provider connects with (providers/identity.ts, the pool's identity).
const CONNECTION_KEYS = [...CONNECTION_FIELDS, 'environment', 'color', 'group', 'members'] as const;
const TOP_KEYS = new Set<string>(['id', 'name', 'type', 'roles', 'policy', ...CONNECTION_KEYS]);
const POLICY_KEYS = new Set([
  'readOnly',
  'writeApproval',
  'approvalsRequired',
  'approverRoles',
  'requireTicket',
  'freezeWindows',
  'guardrails',
  'objectRules',
  'masking',
  'maxRows',
  'maxConcurrent',
  'maxAffectedRows',
  'adminsRunUnverifiable',
  'exportRoles',
  'agent',
]);
const POLICY_AT_TOP = new Set([
  'readOnly',
  'requireTicket',
  'approvalsRequired',
  'exportRoles',
  'writeApproval',
]);

function readConnection(r: Reader, raw: Obj, type: EngineType | undefined): ManagedConnectionFields {
  const c: ManagedConnectionFields = {};
  for (const key of [
    'host',
    'user',
    'database',
    'schema',
    'connectionString',
    'sshProfile',
    'serviceName',
    'instanceName',
    'localDataCenter',
    'authSource',
    'region',
    'workgroup',
    'outputLocation',
    'endpoint',
    'color',
    'group',
  ] as const) {
    const v = r.string(raw, key, key);
    if (v !== undefined) c[key] = v;
  }
  // A password may legitimately be empty (some local servers) but must be text.
  if (raw.password !== undefined && raw.password !== null) {
    if (typeof raw.password === 'string') c.password = raw.password;
    else r.problem('password', `must be a string (got ${r.got('password', raw.password)}); quote it in YAML`);
  }
  const port = r.int(raw, 'port', 'port', 1, 65535);
  if (port !== undefined) c.port = port;
  const timeout = r.int(raw, 'queryTimeout', 'queryTimeout', 1, 2_147_483_647);
  if (timeout !== undefined) c.queryTimeout = timeout;
  const skip = r.bool(raw, 'skipObjectScan', 'skipObjectScan');
  if (skip !== undefined) c.skipObjectScan = skip;
  const env = r.oneOf(raw, 'environment', 'environment', ENVIRONMENTS);
  if (env) c.environment = env;
  if (raw.ssl !== undefined && raw.ssl !== null) {
    const ssl = typeof raw.ssl === 'object' ? r.mapping(raw, 'ssl', 'ssl') : r.bool(raw, 'ssl', 'ssl');
    if (ssl !== undefined) c.ssl = ssl;
  }
  const tunnel = r.mapping(raw, 'sshTunnel', 'sshTunnel');
  if (tunnel) c.sshTunnel = tunnel;
  const members = r.stringList(raw, 'members', 'members', (s) =>
    ID.test(s) ? undefined : 'must be a datasource id',
  );
  if (members) c.members = members;

  if (!type) return c;
  const has = (k: keyof ManagedConnectionFields) => c[k] !== undefined || r.pending(k);
  const engine = engineDescriptor(type);
  if (!engine) return c;
  if (c.connectionString !== undefined && engine.acceptsConnectionString === false) {
    r.problem('connectionString', `is not accepted by the ${type} engine; give host and port`);
  }
  const address = engine.datasourceAddress ?? (engine.fileBased ? 'file' : 'server');
  if (address === 'file') {
    if (!has('database'))
      r.problem('database', `is required for the ${type} engine (a file path or :memory:)`);
  } else if (address === 'file-or-url') {
    if (!has('database') && !has('host') && !has('connectionString')) {
      r.problem('database', `is required for the ${type} engine (a file path or a ${type}:// URL)`);
    }
  } else if (address === 'server' && !c.members && !has('host') && !has('connectionString')) {
    r.problem('host', `is required for the ${type} engine (or give connectionString)`);
  }
  // The engine's own required fields (Athena's region, Cassandra's local data center).
  for (const field of engine.connectionFields ?? []) {
    if (field.required && !has(field.name as keyof ManagedConnectionFields))
      r.problem(field.name, `is required for the ${type} engine`);
  }
  if (engine.passwordNeedsTls && c.password !== undefined && c.ssl !== true && !isObj(c.ssl)) {
    r.problem('ssl', `must be enabled when the ${type} engine is given a password`);
  }
  return c;
}

function readPolicy(r: Reader, raw: Obj | undefined): DatasourcePolicy {
  const p: DatasourcePolicy = {
    readOnly: false,
    writeApproval: false,
    approvalsRequired: 1,
    approverRoles: [],
    requireTicket: false,
    freezeWindows: [],
    guardrails: true,
    masking: [],
  };
  if (!raw) return p;
  r.unknownKeys(raw, POLICY_KEYS, 'policy');
  p.readOnly = r.bool(raw, 'readOnly', 'policy.readOnly') ?? false;
  p.writeApproval = r.bool(raw, 'writeApproval', 'policy.writeApproval') ?? false;
  p.requireTicket = r.bool(raw, 'requireTicket', 'policy.requireTicket') ?? false;
  p.guardrails = r.bool(raw, 'guardrails', 'policy.guardrails') ?? true;
  if (raw.approvalsRequired !== undefined) {
    const n = raw.approvalsRequired;
    if (n === 1 || n === 2 || n === '1' || n === '2') p.approvalsRequired = Number(n) as 1 | 2;
    else if (!r.pending('policy.approvalsRequired')) {
      r.problem('policy.approvalsRequired', `must be 1 or 2 (got ${r.got('policy.approvalsRequired', n)})`);
    }
  }
  p.approverRoles = r.stringList(raw, 'approverRoles', 'policy.approverRoles') ?? [];
  const exportRoles = r.stringList(raw, 'exportRoles', 'policy.exportRoles');
  if (exportRoles) p.exportRoles = exportRoles;
  const maxRows = r.int(raw, 'maxRows', 'policy.maxRows', 1, Number.MAX_SAFE_INTEGER);
  if (maxRows !== undefined) p.maxRows = maxRows;
  const maxConcurrent = r.int(raw, 'maxConcurrent', 'policy.maxConcurrent', 1, 10_000);
  if (maxConcurrent !== undefined) p.maxConcurrent = maxConcurrent;
  const maxAffectedRows = r.int(raw, 'maxAffectedRows', 'policy.maxAffectedRows', 0, Number.MAX_SAFE_INTEGER);
  if (maxAffectedRows !== undefined) p.maxAffectedRows = maxAffectedRows;
  const adminsRunUnverifiable = r.bool(raw, 'adminsRunUnverifiable', 'policy.adminsRunUnverifiable');
  if (adminsRunUnverifiable !== undefined) p.adminsRunUnverifiable = adminsRunUnverifiable;

  if (raw.freezeWindows !== undefined && raw.freezeWindows !== null) {
    if (!Array.isArray(raw.freezeWindows)) {
      r.problem(
        'policy.freezeWindows',
        `must be a list of {from, to, reason} (got ${r.got('policy.freezeWindows', raw.freezeWindows)})`,
      );
    } else {
      raw.freezeWindows.forEach((w, i) => {
        const at = `policy.freezeWindows[${i}]`;
        if (!isObj(w)) {
          r.problem(at, `must be a mapping {from, to, reason} (got ${r.got(at, w)})`);
          return;
        }
        r.unknownKeys(w, new Set(['from', 'to', 'reason']), at);
        const instant = (key: 'from' | 'to') => {
          const v = w[key] instanceof Date ? (w[key] as Date).toISOString() : w[key];
          if (r.pending(`${at}.${key}`)) return undefined;
          if (typeof v !== 'string' || !ISO_INSTANT.test(v) || Number.isNaN(Date.parse(v))) {
            r.problem(
              `${at}.${key}`,
              `must be an ISO-8601 instant such as 2030-01-31T18:00:00Z (got ${r.got(`${at}.${key}`, v)})`,
            );
            return undefined;
          }
          return new Date(v).toISOString();
        };
        const from = instant('from');
        const to = instant('to');
        const reason = r.string(w, 'reason', `${at}.reason`);
        if (from && to && from > to) r.problem(at, 'ends before it starts (from is after to)');
        if (from && to) p.freezeWindows.push(reason ? { from, to, reason } : { from, to });
      });
    }
  }

  const rules = r.mapping(raw, 'objectRules', 'policy.objectRules');
  if (rules) {
    r.unknownKeys(rules, new Set(['hidden', 'defaultSchema']), 'policy.objectRules');
    const hidden =
      r.stringList(rules, 'hidden', 'policy.objectRules.hidden', (s, at) =>
        HIDDEN_OBJECT.test(s.trim())
          ? undefined
          : `must be "schema.table" or "schema.*" (got ${r.got(at, s)})`,
      ) ?? [];
    const defaultSchema = r.string(rules, 'defaultSchema', 'policy.objectRules.defaultSchema');
    p.objectRules = defaultSchema ? { hidden, defaultSchema } : { hidden };
  }

  if (raw.masking !== undefined && raw.masking !== null) {
    if (!Array.isArray(raw.masking)) {
      r.problem(
        'policy.masking',
        `must be a list of {column, rule} (got ${r.got('policy.masking', raw.masking)})`,
      );
    } else {
      raw.masking.forEach((m, i) => {
        const at = `policy.masking[${i}]`;
        if (!isObj(m)) {
          r.problem(at, `must be a mapping {column, rule} (got ${r.got(at, m)})`);
          return;
        }
        r.unknownKeys(m, new Set(['column', 'rule']), at);
        const column = r.string(m, 'column', `${at}.column`, true);
        const rule = r.oneOf(m, 'rule', `${at}.rule`, MASKING_RULES);
        if (m.rule === undefined) r.problem(`${at}.rule`, `is required (one of ${MASKING_RULES.join(', ')})`);
        if (column && !r.pending(`${at}.column`) && !MASKED_COLUMN.test(column)) {
          r.problem(
            `${at}.column`,
            `must be "table.column" or "*.column" (got ${r.got(`${at}.column`, column)})`,
          );
        } else if (column && rule) p.masking.push({ column, rule });
      });
    }
  }

  const agent = r.mapping(raw, 'agent', 'policy.agent');
  if (agent) {
    r.unknownKeys(agent, new Set(['user', 'password']), 'policy.agent');
    const user = r.string(agent, 'user', 'policy.agent.user', true);
    let password: string | undefined;
    if (agent.password !== undefined && agent.password !== null) {
      if (typeof agent.password === 'string') password = agent.password;
      else
        r.problem(
          'policy.agent.password',
          `must be a string (got ${r.got('policy.agent.password', agent.password)})`,
        );
    }
    if (user) p.agent = password === undefined ? { user } : { user, password };
  }
  return p;
}

/** Reads the whole document; `source` names the file in messages. */
export function readDatasources(doc: unknown, env: NodeJS.ProcessEnv): ReadResult {
  const errors: string[] = [];
  const entries: ManagedEntry[] = [];
  if (doc === null || doc === undefined)
    return { entries, errors: ['the file is empty; expected datasources: [...]'] };
  if (!isObj(doc))
    return {
      entries,
      errors: [`the top level must be a mapping with a datasources list (got ${describe(doc)})`],
    };
  for (const key of Object.keys(doc))
    if (key !== 'datasources') errors.push(`${key} is not a known top-level key`);
  const list = doc.datasources;
  if (!Array.isArray(list)) {
    errors.push(`datasources must be a list (got ${list === undefined ? 'nothing' : describe(list)})`);
    return { entries, errors };
  }
  const seen = new Set<string>();
  list.forEach((item, index) => {
    const fallback = `datasources[${index}]`;
    if (!isObj(item)) {
      errors.push(`${fallback}: must be a mapping (got ${describe(item)})`);
      return;
    }
    const { value, missing, unresolved, resolved } = interpolate(item, env);
    const raw = value as Obj;
    const rawId = raw.id;
    const idOk = typeof rawId === 'string' && ID.test(rawId);
    const label = idOk ? `datasource "${rawId}"` : fallback;
    const r = new Reader(label, errors, unresolved, resolved);
    if (!idOk) {
      r.problem(
        'id',
        rawId === undefined ? 'is required' : `must match [a-z0-9-]{1,64} (got ${r.got('id', rawId)})`,
      );
    } else if (seen.has(rawId)) {
      r.problem('id', 'is declared twice');
    } else seen.add(rawId);
    r.unknownKeys(raw, TOP_KEYS, '', (key) =>
      POLICY_AT_TOP.has(key)
        ? `policy keys go under policy, e.g. policy.${key}`
        : key === 'agentUser' || key === 'agentPassword'
          ? 'use policy.agent.user and policy.agent.password'
          : undefined,
    );
    const type = r.oneOf(raw, 'type', 'type', ENGINE_TYPES);
    if (raw.type === undefined) r.problem('type', `is required (one of ${ENGINE_TYPES.join(', ')})`);
    const name = r.string(raw, 'name', 'name') ?? (idOk ? (rawId as string) : '');
    let roles: SessionRole[] = ['admin'];
    if (raw.roles !== undefined) {
      const list = r.stringList(raw, 'roles', 'roles', (s, at) =>
        (SESSION_ROLES as readonly string[]).includes(s)
          ? undefined
          : `must be admin or user (got ${r.got(at, s)})`,
      );
      if (list) roles = [...new Set(list)] as SessionRole[];
    }
    const connection = readConnection(r, raw, type);
    const policy = readPolicy(r, r.mapping(raw, 'policy', 'policy'));
    if (!idOk || !type) return;
    if (missing.length > 0) {
      const paths = [...unresolved].join(', ');
      entries.push({
        available: false,
        datasource: {
          id: rawId as string,
          name,
          type,
          roles,
          reason: `environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not set (used in ${paths})`,
        },
      });
      return;
    }
    entries.push({
      available: true,
      datasource: { id: rawId as string, name, type, roles, connection, policy },
    });
  });
  // Members of a virtual datasource must be declared in the same file.
  for (const e of entries) {
    if (!e.available) continue;
    for (const m of e.datasource.connection.members ?? []) {
      if (!seen.has(m))
        errors.push(`datasource "${e.datasource.id}": members names "${m}", which is not declared`);
    }
  }
  return { entries, errors };
}
