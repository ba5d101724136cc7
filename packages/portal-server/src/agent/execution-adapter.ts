// The one place the investigation agent (and the AI routes' grounding and MCP's object tools) reach a
// database: a statement runs through the portal's one governed execution function (`executeGoverned`,
// src/execution/pipeline.ts) in the read-only execution profile — the datasource's `agent` account where
// policy.agent names one, and always inside the engine's read-only mode — after the classifier has refused
// anything that writes, with typed `agent_*` reasons. The object surface is read as the principal may see
// it: hidden objects left out, masked columns removed.
import { HttpError } from '@app/kit';
import type { Principal } from '../auth/principal.js';
import { boundRows } from '../bot/execute.js';
import type { ManagedDatasource } from '../datasources/types.js';
import type { ExecutionRoute, QueryDeps } from '../execution/contracts.js';
import { executeGoverned } from '../execution/pipeline.js';
import { executionContext, type ResolvedTarget, resolveTarget, splitChecked } from '../execution/target.js';
import { classifyScript, dialectForEngine } from '../governance/classify/index.js';
import { toHttpError } from '../providers/errors.js';
import type { ConnectionDescriptor, DatabaseObject, ObjectDetail } from '../providers/types.js';
import { planLimit } from '../sql/limit.js';

/** Rows one agent statement keeps (and hands to the model and the browser). */
export const AGENT_MAX_ROWS = 200;
/** Objects one listing hands to a model. */
export const AGENT_MAX_OBJECTS = 200;

/** Why a statement did not run; `reason` is the typed `agent_*` value audit lines carry. */
export class ReadRefused extends Error {
  constructor(
    readonly reason:
      | 'agent_write_refused'
      | 'agent_multiple_statements'
      | 'agent_policy_denied'
      | 'agent_datasource_unavailable'
      | 'agent_statement_failed',
    message: string,
    readonly code: string,
    readonly status = 403,
  ) {
    super(message);
  }
}

export interface ReadResult {
  statement: string;
  fields: string[];
  rows: Record<string, unknown>[];
  rowCount: number;
  truncated: boolean;
  durationMs: number;
}

/** How one statement is run and audited. */
export interface ReadOptions {
  /** `agent` for the agent's tools and handover, `mcp` for MCP tools. */
  route: Extract<ExecutionRoute, 'agent' | 'mcp'>;
  /** The `route` field of the `query_execution` audit line. */
  auditRoute: string;
  correlationId?: string;
  /** Called once the policy admitted the statement (its slot is held), before it runs. */
  onAdmitted?: () => void | Promise<void>;
  /** Aborting cancels the running statement and frees its slot. */
  signal?: AbortSignal;
}

/** The execution dependencies (src/execution/contracts.ts), as server.ts builds them. */
export type ExecutionAdapterDeps = QueryDeps;

interface Target extends ResolvedTarget {
  managed: ManagedDatasource;
  engine: string;
  maxRows: number;
}

function lower(s: string): string {
  return s.toLowerCase();
}

export class ExecutionAdapter {
  constructor(private readonly deps: QueryDeps) {}

  /**
   * The managed datasource `id` as `principal` may use it, with the agent profile's account swapped in.
   * 404 when unknown, not managed or hidden from the role (existence is not revealed), 503 when unavailable.
   */
  async target(principal: Principal, id: string): Promise<Target> {
    const resolved = await resolveTarget(this.deps, principal, { connectionId: id });
    const managed = resolved.managed;
    if (!managed) throw new HttpError(404, `Unknown datasource ${id}`, 'NOT_FOUND');
    const agent = managed.policy.agent;
    const descriptor: ConnectionDescriptor = {
      ...resolved.descriptor,
      // The least-privilege account of the read-only profile, when the datasource names one.
      ...(agent ? { user: agent.user, password: agent.password } : {}),
    };
    const maxRows = Math.min(AGENT_MAX_ROWS, resolved.maxRows);
    return { ...resolved, descriptor, managed, engine: resolved.factory.engine, maxRows };
  }

  private objectsContext(principal: Principal, t: Target) {
    return executionContext(principal, t, 'objects', [], [], undefined);
  }

  /**
   * Runs one reading statement through the governed pipeline in the read-only profile. Refused (ReadRefused)
   * when the classifier sees a write, transaction control or more than one statement (nothing reaches
   * governance), or when the policy denies or would hold it (`agent_policy_denied`); a statement that fails
   * in the engine is `agent_statement_failed`.
   */
  async runRead(
    principal: Principal,
    datasourceId: string,
    sql: string,
    o: ReadOptions,
  ): Promise<ReadResult> {
    const t = await this.target(principal, datasourceId);
    const dialect = dialectForEngine(t.engine) ?? t.factory.dialect;
    const defaultSchema = t.managed.policy.objectRules?.defaultSchema;
    const classification = await classifyScript(sql, dialect, defaultSchema ? { defaultSchema } : {});
    if (classification.statements.length !== 1) {
      throw new ReadRefused(
        'agent_multiple_statements',
        'Only one statement at a time is run here',
        'AGENT_ONE_STATEMENT',
      );
    }
    if (classification.isWrite || classification.transactionControl) {
      const s = classification.statements[0];
      throw new ReadRefused(
        'agent_write_refused',
        `Only reads are allowed here: the server classifies this ${s.statementType} statement as ${s.doubtful ? 'a possible write' : 'a write'}`,
        'READ_ONLY',
      );
    }
    let statements: string[];
    try {
      statements = splitChecked(t, sql);
    } catch (err) {
      const e = toHttpError(err);
      throw new ReadRefused('agent_write_refused', e.message, e.code ?? 'FORBIDDEN', e.statusCode);
    }
    if (statements.length !== 1)
      throw new ReadRefused(
        'agent_multiple_statements',
        'Only one statement at a time is run here',
        'AGENT_ONE_STATEMENT',
      );
    const statement = statements[0];
    let admitted = false;
    try {
      return await executeGoverned(this.deps, {
        principal,
        route: o.route,
        auditRoute: o.auditRoute,
        target: t,
        sql: statement,
        statements,
        params: [],
        readOnlyProfile: true,
        ...(o.signal ? { signal: o.signal } : {}),
        auditFields: {
          profile: 'agent-read-only',
          ...(o.correlationId ? { correlationId: o.correlationId } : {}),
        },
        onAdmitted: async () => {
          admitted = true;
          await o.onAdmitted?.();
        },
        run: async (exec) => {
          const started = performance.now();
          const plan = await planLimit(t.factory.sqlDialect, statement, t.maxRows, 0);
          const result = await exec.query(plan.sql, [], { maxRows: t.maxRows });
          const bounded = boundRows(exec.mask(result.fields, result.rows), t.maxRows);
          return {
            statement,
            fields: result.fields,
            rows: bounded.rows,
            rowCount: result.rowCount,
            truncated: bounded.truncated || result.truncated,
            durationMs: Math.round(performance.now() - started),
          };
        },
        outcome: (a) => ({ rowCount: a.rowCount }),
      });
    } catch (err) {
      if (err instanceof ReadRefused) throw err;
      const e = toHttpError(err);
      throw new ReadRefused(
        admitted ? 'agent_statement_failed' : 'agent_policy_denied',
        e.message,
        e.code ?? 'FORBIDDEN',
        e.statusCode,
      );
    }
  }

  /** Objects of a container (or the whole datasource) the principal may see. */
  async listObjects(principal: Principal, datasourceId: string, path?: string[]): Promise<DatabaseObject[]> {
    const t = await this.target(principal, datasourceId);
    const ctx = this.objectsContext(principal, t);
    try {
      const all = await this.deps.providers.use(t.descriptor, (p) => p.catalog.listObjects(path));
      return all.filter((o) => this.deps.governance.isObjectVisible(ctx, o.path)).slice(0, AGENT_MAX_OBJECTS);
    } catch (err) {
      throw toHttpError(err);
    }
  }

  /** One object's columns, indexes and keys; hidden objects are 404 and masked columns are left out. */
  async describe(principal: Principal, datasourceId: string, path: string[]): Promise<ObjectDetail> {
    const t = await this.target(principal, datasourceId);
    const ctx = this.objectsContext(principal, t);
    if (path.length === 0 || !this.deps.governance.isObjectVisible(ctx, path))
      throw new HttpError(404, 'Unknown object', 'NOT_FOUND');
    let detail: ObjectDetail | undefined;
    try {
      detail = await this.deps.providers.use(t.descriptor, (p) => p.catalog.describe(path));
    } catch (err) {
      throw toHttpError(err);
    }
    if (!detail) throw new HttpError(404, `Unknown object ${path.join('.')}`, 'NOT_FOUND');
    const masked = maskedColumns(t.managed, path[path.length - 1]);
    if (masked.size === 0) return detail;
    return {
      ...detail,
      columns: detail.columns.filter((c) => !masked.has(lower(c.name))),
      indexes: detail.indexes.filter((i) => !i.columns.some((c) => masked.has(lower(c)))),
      foreignKeys: detail.foreignKeys.filter((f) => !masked.has(lower(f.columnName))),
      // A view's source could name the masked columns' expressions; it is not sent when any column is masked.
      definition: undefined,
    };
  }
}

/** Lower-cased names of the columns of `table` a masking rule covers (`table.column` or `*.column`). */
export function maskedColumns(managed: ManagedDatasource, table: string): Set<string> {
  const out = new Set<string>();
  const t = lower(table);
  for (const rule of managed.policy.masking ?? []) {
    const dot = rule.column.lastIndexOf('.');
    if (dot < 0) continue;
    const owner = lower(rule.column.slice(0, dot));
    const column = lower(rule.column.slice(dot + 1));
    // `schema.table.column` and `table.column` both name the table by its last part.
    const ownerTable = owner.split('.').pop();
    if (owner === '*' || ownerTable === t) out.add(column);
  }
  return out;
}
