// The table as the table browser (table-data.ts) and the import routes (import.ts) key it: its columns,
// primary key or SQLite row id, the columns the caller sees masked, and whether its rows may be edited or
// imported. Hidden objects are 404, as on the object surface.
import { HttpError, notFound } from '@app/kit';
import type { Principal } from '../auth/principal.js';
import type { QueryDeps } from '../execution/contracts.js';
import { executionContext, type ResolvedTarget } from '../execution/target.js';
import type { StatementClassification } from '../governance/classify/types.js';
import { applicableRules } from '../governance/masking.js';
import { toHttpError } from '../providers/errors.js';
import type { Dialect } from '../providers/registry.js';
import type { ObjectDetail } from '../providers/types.js';
import type { TableShape } from '../sql/table-statements.js';

/** Dialects the statements are generated for (PostgreSQL, MySQL/MariaDB, SQLite/libSQL, DuckDB, SQL Server, Oracle). */
const DIALECTS: ReadonlySet<Dialect> = new Set(['postgres', 'mysql', 'sqlite', 'duckdb', 'mssql', 'oracle']);

/** The table as the browser keys it: its columns, primary key or row id, masked columns. */
export interface TableInfo {
  detail: ObjectDetail;
  shape: TableShape;
  masked: Set<string>;
  editable: boolean;
  readOnlyReason?: string;
  /** Rows may be imported (http/import.ts): the engine edits rows, it is a table, the datasource writes. */
  importable: boolean;
}

export async function readTable(
  deps: QueryDeps,
  session: Principal,
  target: ResolvedTarget,
  path: string[],
): Promise<TableInfo> {
  const { dialect, capabilities } = target.factory;
  if (!DIALECTS.has(dialect))
    throw new HttpError(400, `${target.factory.engine} has no table browser`, 'UNSUPPORTED');
  const ctx = executionContext(session, target, 'objects', [], [], undefined);
  if (!deps.governance.isObjectVisible(ctx, path)) throw notFound('Unknown object');
  const detail = await deps.providers
    .use(target.descriptor, (p) => p.catalog.describe(path))
    .catch((err) => {
      throw toHttpError(err);
    });
  if (!detail || detail.columns.length === 0) throw notFound(`Unknown table ${path.join('.')}`);
  const key = detail.columns.filter((c) => c.isPrimary).map((c) => c.name);
  const isTable = /table/i.test(detail.object.kind) && !/virtual|foreign/i.test(detail.object.kind);
  // SQLite keys a table without a primary key by its rowid (a WITHOUT ROWID table always has one).
  const rowId = key.length === 0 && isTable && dialect === 'sqlite' ? 'rowid' : undefined;
  const shape: TableShape = { path, columns: detail.columns, key, ...(rowId ? { rowId } : {}) };
  const masked = maskedColumns(
    ctx,
    path,
    detail.columns.map((c) => c.name),
  );
  const policy = ctx.policy;
  const readOnlyReason = !capabilities.supportsInlineRowEdit
    ? `${target.factory.engine} does not edit rows in the grid`
    : !isTable
      ? `a ${detail.object.kind} is not edited in the grid`
      : key.length === 0 && !rowId
        ? 'the table has no primary key'
        : policy.readOnly || capabilities.readOnlyEngine
          ? 'the datasource is read-only'
          : undefined;
  return {
    detail,
    shape,
    masked,
    editable: readOnlyReason === undefined,
    importable:
      capabilities.supportsInlineRowEdit && isTable && !policy.readOnly && !capabilities.readOnlyEngine,
    ...(readOnlyReason ? { readOnlyReason } : {}),
  };
}

/** Columns of this table the datasource's masking rules cover (the caller sees them masked). */
function maskedColumns(
  ctx: ReturnType<typeof executionContext>,
  path: string[],
  names: string[],
): Set<string> {
  const rules = ctx.policy.masking;
  if (rules.length === 0) return new Set();
  const reach: StatementClassification = {
    index: 0,
    text: '',
    kind: 'read',
    statementType: 'SELECT',
    guardrails: [],
    objects: [
      {
        ...(path.length >= 2 ? { schema: path[path.length - 2] } : {}),
        name: path[path.length - 1],
        access: 'read',
      },
    ],
    unplaceable: [],
    transactionControl: false,
    doubtful: false,
  };
  const applied = applicableRules(rules, reach);
  return new Set(names.filter((n) => applied.has(n.toLowerCase())));
}

/** The columns as both routes answer them, each marked masked or not. */
export function columnsAnswer(info: TableInfo) {
  return info.detail.columns.map((c) => ({
    name: c.name,
    type: c.type,
    nullable: c.nullable,
    isPrimary: c.isPrimary,
    masked: info.masked.has(c.name),
  }));
}
