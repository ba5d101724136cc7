// The one place the investigation agent (and the AI routes' grounding) reach a database: a statement runs
// through the read-only execution profile — the datasource's `agent` account where policy.agent names one,
// and always inside the engine's read-only mode — after the classifier and the same governance hooks every
// session route calls (policy, object rules, concurrency, masking). The object surface is read the same way,
// with hidden objects left out and masked columns removed. When the portal's single execution pipeline
// (src/execution/) lands, this adapter is the only file that switches over to it.
import { HttpError } from '@app/kit';
import { boundRows } from '../bot/execute.js';
import type { DatasourcePolicy as ManagedPolicy } from '../datasources/types.js';
import { classifyScript, dialectForEngine } from '../governance/classify/index.js';
import { readOnlyProvider } from '../governance/read-only.js';
import type {
  AuditSink,
  ExecutionContext,
  GovernanceHooks,
  ManagedDatasource,
  ManagedLookup,
} from '../http/query-deps.js';
import type { ProviderCache } from '../providers/cache.js';
import { toHttpError } from '../providers/errors.js';
import type { ConnectionDescriptor, DatabaseObject, ObjectDetail, Provider } from '../providers/types.js';
import { planLimit } from '../sql/limit.js';

/** Rows one agent statement keeps (and hands to the model and the browser). */
export const AGENT_MAX_ROWS = 200;
/** Objects one listing hands to a model. */
export const AGENT_MAX_OBJECTS = 200;

export interface Principal {
  role: 'admin' | 'user';
  username: string;
}

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

/** A statement the classifier and the policy admitted, holding its concurrency slot until run or released. */
export interface PreparedRead {
  statement: string;
  run(onCancel?: (cancel: () => Promise<void>) => void): Promise<ReadResult>;
  release(): void;
}

export interface ExecutionAdapterDeps {
  providers: ProviderCache;
  governance: GovernanceHooks;
  managed: ManagedLookup;
  audit: AuditSink;
}

interface Target {
  managed: ManagedDatasource;
  descriptor: ConnectionDescriptor;
  engine: string;
  dialect: ExecutionContext['dialect'];
  maxRows: number;
}

/** The managed policy as the registry parsed it (the route layer's type keeps it loose). */
function policyOf(managed: ManagedDatasource): Partial<ManagedPolicy> {
  return managed.policy as unknown as Partial<ManagedPolicy>;
}

function lower(s: string): string {
  return s.toLowerCase();
}

export class ExecutionAdapter {
  constructor(private readonly deps: ExecutionAdapterDeps) {}

  /**
   * The managed datasource `id` as `principal` may use it, with the agent profile's account swapped in.
   * 404 when unknown or hidden from the role (existence is not revealed), 503 when unavailable.
   */
  async target(principal: Principal, id: string): Promise<Target> {
    const managed = await this.deps.managed.getManaged(id);
    if (!managed) {
      const why = this.deps.managed.unavailable?.(id);
      if (why) throw new HttpError(503, `Datasource ${id} is unavailable: ${why}`, 'DATASOURCE_UNAVAILABLE');
      throw new HttpError(404, `Unknown datasource ${id}`, 'NOT_FOUND');
    }
    if (managed.roles && !managed.roles.includes(principal.role))
      throw new HttpError(404, `Unknown datasource ${id}`, 'NOT_FOUND');
    const agent = policyOf(managed).agent;
    const descriptor: ConnectionDescriptor = {
      ...managed.connection,
      id: managed.id,
      name: managed.name,
      // The least-privilege account of the read-only profile, when the datasource names one.
      ...(agent ? { user: agent.user, password: agent.password } : {}),
    };
    let factory: ReturnType<ProviderCache['registry']['get']>;
    try {
      factory = this.deps.providers.registry.get(descriptor.type);
    } catch (err) {
      throw toHttpError(err);
    }
    const cap = managed.policy.maxRows;
    const maxRows = Math.min(AGENT_MAX_ROWS, typeof cap === 'number' && cap > 0 ? cap : AGENT_MAX_ROWS);
    return { managed, descriptor, engine: factory.engine, dialect: factory.dialect, maxRows };
  }

  private context(principal: Principal, t: Target, statements: string[]): ExecutionContext {
    return {
      session: principal,
      route: statements.length ? 'query' : 'objects',
      connection: t.descriptor,
      managed: t.managed,
      policy: t.managed.policy,
      engine: t.engine,
      dialect: t.dialect,
      statements,
      params: [],
      ...(statements.length ? { sql: statements[0] } : {}),
    };
  }

  /**
   * Admits one reading statement: refused (ReadRefused) when the classifier sees a write, transaction
   * control or more than one statement, or when the policy denies or would hold it. The admitted statement
   * holds a concurrency slot until it has run or `release` is called.
   */
  async prepareRead(
    principal: Principal,
    datasourceId: string,
    sql: string,
    audit: { route: string; correlationId?: string },
  ): Promise<PreparedRead> {
    const t = await this.target(principal, datasourceId);
    const dialect = dialectForEngine(t.engine) ?? t.dialect;
    const defaultSchema = policyOf(t.managed).objectRules?.defaultSchema;
    const classification = await classifyScript(sql, dialect, defaultSchema ? { defaultSchema } : {});
    if (classification.statements.length !== 1) {
      throw new ReadRefused(
        'agent_multiple_statements',
        'The agent runs exactly one statement at a time',
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
    const statement = classification.statements[0].text;
    const ctx = this.context(principal, t, [statement]);
    try {
      await this.deps.governance.beforeExecute(ctx);
    } catch (err) {
      const e = toHttpError(err);
      throw new ReadRefused('agent_policy_denied', e.message, e.code ?? 'FORBIDDEN', e.statusCode);
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.deps.governance.afterExecute?.(ctx);
    };
    return {
      statement,
      release,
      run: async (onCancel) => {
        try {
          return await this.execute(principal, t, ctx, statement, audit, onCancel);
        } finally {
          release();
        }
      },
    };
  }

  /** prepareRead and run in one step. */
  async runRead(
    principal: Principal,
    datasourceId: string,
    sql: string,
    audit: { route: string; correlationId?: string },
    onCancel?: (cancel: () => Promise<void>) => void,
  ): Promise<ReadResult> {
    const prepared = await this.prepareRead(principal, datasourceId, sql, audit);
    return prepared.run(onCancel);
  }

  private async execute(
    principal: Principal,
    t: Target,
    ctx: ExecutionContext,
    statement: string,
    audit: { route: string; correlationId?: string },
    onCancel?: (cancel: () => Promise<void>) => void,
  ): Promise<ReadResult> {
    const base = {
      type: 'query_execution',
      actor: principal.username,
      connection: t.managed.id,
      connectionName: t.managed.name,
      engine: t.engine,
      route: audit.route,
      profile: 'agent-read-only',
      statement: statement.length > 10_000 ? `${statement.slice(0, 10_000)}…` : statement,
      ...(audit.correlationId ? { correlationId: audit.correlationId } : {}),
      ...(this.deps.governance.auditFields?.(ctx) ?? {}),
    };
    const started = performance.now();
    try {
      const result = await this.deps.providers.use(t.descriptor, async (raw) => {
        // Governance's wrapper first (withheld engine messages), then the engine's read-only mode, always.
        const governed = this.deps.governance.wrapProvider?.(ctx, raw) ?? raw;
        const provider: Provider = readOnlyProvider(governed);
        const plan = await planLimit(t.dialect, statement, t.maxRows, 0);
        return provider.query(plan.sql, [], {
          maxRows: t.maxRows,
          ...(onCancel ? { onStart: onCancel } : {}),
        });
      });
      const durationMs = Math.round(performance.now() - started);
      const masked = this.deps.governance.maskRows(ctx, result.fields, result.rows);
      const bounded = boundRows(masked, t.maxRows);
      await this.record({ ...base, result: 'success', rowCount: result.rowCount, durationMs });
      return {
        statement,
        fields: result.fields,
        rows: bounded.rows,
        rowCount: result.rowCount,
        truncated: bounded.truncated || result.truncated,
        durationMs,
      };
    } catch (err) {
      const e = toHttpError(err);
      const durationMs = Math.round(performance.now() - started);
      await this.record({ ...base, result: 'failure', durationMs, error: e.message, errorCode: e.code });
      throw new ReadRefused('agent_statement_failed', e.message, e.code ?? 'QUERY_ERROR', e.statusCode);
    }
  }

  /** Objects of a container (or the whole datasource) the principal may see. */
  async listObjects(principal: Principal, datasourceId: string, path?: string[]): Promise<DatabaseObject[]> {
    const t = await this.target(principal, datasourceId);
    const ctx = this.context(principal, t, []);
    try {
      const all = await this.deps.providers.use(t.descriptor, (p) => p.listObjects(path));
      return all.filter((o) => this.deps.governance.isObjectVisible(ctx, o.path)).slice(0, AGENT_MAX_OBJECTS);
    } catch (err) {
      throw toHttpError(err);
    }
  }

  /** One object's columns, indexes and keys; hidden objects are 404 and masked columns are left out. */
  async describe(principal: Principal, datasourceId: string, path: string[]): Promise<ObjectDetail> {
    const t = await this.target(principal, datasourceId);
    const ctx = this.context(principal, t, []);
    if (path.length === 0 || !this.deps.governance.isObjectVisible(ctx, path))
      throw new HttpError(404, 'Unknown object', 'NOT_FOUND');
    let detail: ObjectDetail | undefined;
    try {
      detail = await this.deps.providers.use(t.descriptor, (p) => p.describe(path));
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

  private async record(event: Parameters<AuditSink['record']>[0]): Promise<void> {
    try {
      await this.deps.audit.record(event);
    } catch {
      // the sink logs its own failures
    }
  }
}

/** Lower-cased names of the columns of `table` a masking rule covers (`table.column` or `*.column`). */
export function maskedColumns(managed: ManagedDatasource, table: string): Set<string> {
  const out = new Set<string>();
  const t = lower(table);
  for (const rule of policyOf(managed).masking ?? []) {
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
