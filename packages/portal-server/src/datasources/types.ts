// What a managed datasource is once read from PORTAL_DATASOURCES: the connection fields the server opens it
// with, the roles that see it, and its policy (the keys of decisions.md), validated and defaulted once at load
// (validate.ts) so every layer below reads it as is. Plain data, no I/O.

import { ENGINES, type EngineId } from '../providers/registry.js';
import type { ConnectionDescriptor } from '../providers/types.js';

/** The engine ids a datasource may name: the registry's engines (the 18 of decisions.md). */
export const ENGINE_TYPES: readonly EngineId[] = ENGINES.map((e) => e.engine);
export type EngineType = EngineId;

export const SESSION_ROLES = ['admin', 'user'] as const;
export type SessionRole = (typeof SESSION_ROLES)[number];

export const ENVIRONMENTS = ['production', 'staging', 'development', 'local', 'other'] as const;

export const MASKING_RULES = ['full', 'partial', 'hash'] as const;
export type MaskingRuleKind = (typeof MASKING_RULES)[number];

export interface FreezeWindow {
  /** ISO-8601 instants; writes are refused while `from <= now <= to`. */
  from: string;
  to: string;
  reason?: string;
}

export interface ObjectRules {
  /** `schema.table` or `schema.*`. */
  hidden: string[];
  defaultSchema?: string;
}

export interface MaskingRule {
  /** `table.column` or `*.column`. */
  column: string;
  rule: MaskingRuleKind;
}

/**
 * The policy in force, every key defaulted: a managed datasource's as validated at load, or a connection a
 * user created (datasources/policy.ts: no keys, guardrails on in production). The one policy shape.
 */
export interface DatasourcePolicy {
  readOnly: boolean;
  writeApproval: boolean;
  approvalsRequired: 1 | 2;
  /** Role names, user names or emails, `chat:<user_id>`; empty means administrators review. */
  approverRoles: string[];
  requireTicket: boolean;
  freezeWindows: FreezeWindow[];
  /** On unless set to false. */
  guardrails: boolean;
  objectRules?: ObjectRules;
  masking: MaskingRule[];
  maxRows?: number;
  maxConcurrent?: number;
  /** A guarded write whose dry run touches more rows than this (in any table) is held for approval. */
  maxAffectedRows?: number;
  /** Administrators run statements the classifier cannot verify (guardrail `unverifiable`) without approval. */
  adminsRunUnverifiable?: boolean;
  /** Who may export (roles, user names or emails); absent means the environment default. */
  exportRoles?: string[];
  /** Least-privilege account of the read-only (agent) profile. */
  agent?: { user: string; password?: string };
}

/** Connection fields a managed datasource may carry (the descriptor fields the server reads). */
export interface ManagedConnectionFields {
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
  schema?: string;
  connectionString?: string;
  ssl?: boolean | Record<string, unknown>;
  sshTunnel?: Record<string, unknown>;
  sshProfile?: string;
  serviceName?: string;
  instanceName?: string;
  localDataCenter?: string;
  authSource?: string;
  region?: string;
  workgroup?: string;
  outputLocation?: string;
  /** Athena: service URL override (Athena-compatible services, test doubles). */
  endpoint?: string;
  queryTimeout?: number;
  skipObjectScan?: boolean;
  environment?: (typeof ENVIRONMENTS)[number];
  color?: string;
  group?: string;
  members?: string[];
}

export interface ManagedDatasource {
  id: string;
  name: string;
  type: EngineType;
  /** Session roles that see and may use it. */
  roles: SessionRole[];
  connection: ManagedConnectionFields;
  policy: DatasourcePolicy;
}

/** The connection descriptor the server opens a managed datasource with (its id, name and engine added). */
export function descriptorOf(ds: ManagedDatasource): ConnectionDescriptor {
  // The registry validated the connection fields at load; the descriptor type is the provider layer's view.
  return { ...ds.connection, id: ds.id, name: ds.name, type: ds.type } as ConnectionDescriptor;
}

/** A declared datasource that cannot be used right now (e.g. an `${ENV}` reference is not set). */
export interface UnavailableDatasource {
  id: string;
  name: string;
  type: string;
  roles: SessionRole[];
  reason: string;
}

export type ManagedEntry =
  | { available: true; datasource: ManagedDatasource }
  | { available: false; datasource: UnavailableDatasource };
