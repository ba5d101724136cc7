// The shapes the statement classifier answers with: one entry per split statement (read or write, the
// guardrail values that hold it, the objects it reaches) and the script-level summary the policy reads.

/** Guardrail values of database-portal.md, in the order `firstGuardrail` reports them (most specific first). */
export const GUARDRAIL_VALUES = [
  'grant',
  'drop',
  'truncate',
  'delete_without_where',
  'delete',
  'update_without_where',
  'update_always_true',
  // A dry run touched more rows than the policy's maxAffectedRows (governance/effect.ts; never the classifier's).
  'affected_rows',
  // The allowlist does not know the statement to be a read, or a dry run could not count what it touches.
  'unverifiable',
] as const;
export type GuardrailValue = (typeof GUARDRAIL_VALUES)[number];
/** Guardrails only a dry run gives (the classifier never does). */
export const EFFECT_GUARDRAILS: readonly GuardrailValue[] = ['affected_rows'];

export type StatementType =
  | 'SELECT'
  | 'INSERT'
  | 'UPDATE'
  | 'DELETE'
  | 'MERGE'
  | 'DROP'
  | 'TRUNCATE'
  | 'GRANT'
  | 'REVOKE'
  | 'CREATE'
  | 'ALTER'
  | 'CALL'
  | 'EXECUTE'
  | 'PREPARE'
  | 'DO'
  | 'COPY'
  | 'SET'
  | 'USE'
  | 'SHOW'
  | 'DESCRIBE'
  | 'PRAGMA'
  | 'EXPLAIN'
  | 'VACUUM'
  | 'ANALYZE'
  | 'LOCK'
  | 'TRANSACTION'
  | 'OTHER'
  | 'UNKNOWN';

export type Access = 'read' | 'write';

export interface ObjectRef {
  /** Schema (MySQL: database; T-SQL: schema of a two- or three-part name). Absent when the name was unqualified
   *  and no `defaultSchema` was given. */
  schema?: string;
  /** Table, view, sequence or routine name, unquoted (PostgreSQL: as its parser folds it; others: as written).
   *  `*` stands for "every object of the schema" (DROP SCHEMA, GRANT … ON ALL TABLES IN SCHEMA). */
  name: string;
  access: Access;
  /** True when `schema` was filled from `defaultSchema` rather than written in the statement. */
  defaulted?: boolean;
}

export interface StatementClassification {
  index: number;
  /** The statement exactly as split (and as it would be sent to the engine). */
  text: string;
  kind: Access;
  statementType: StatementType;
  guardrails: GuardrailValue[];
  objects: ObjectRef[];
  /** Why part of the statement's reach cannot be placed; each entry reads `<subject>: <reason>`. */
  unplaceable: string[];
  transactionControl: boolean;
  /** The parser could not read the statement, or its reading disagreed with the keyword scan: counted as a write. */
  doubtful: boolean;
  reason?: string;
  /**
   * The engine computes output fields a by-name masker cannot trace to stored ones (a document pipeline's
   * `$group`, `$addFields`, computed projections): with masking rules in force, every output field is masked.
   */
  opaqueOutput?: boolean;
  /**
   * Field paths the request filters, sorts, groups or joins by (a document engine's filter, sort and pipeline
   * references), for engines without SQL grammar: a masked field among them would steer the result.
   */
  steering?: Array<{ field: string; clause: string }>;
}

export interface ScriptClassification {
  statements: StatementClassification[];
  /** Any statement writes (doubtful ones included). */
  isWrite: boolean;
  /** Union of every statement's guardrails, in `GUARDRAIL_VALUES` order. */
  guardrails: GuardrailValue[];
  /** Any statement is transaction control. */
  transactionControl: boolean;
}

export interface ClassifyOptions {
  /** Schema that unqualified names resolve to (the datasource's `objectRules.defaultSchema`). */
  defaultSchema?: string;
}

/** What an AST analyser (libpg-query or node-sql-parser) learnt about one statement. */
export interface Analysis {
  statementType: StatementType;
  kind: Access;
  guardrails: Set<GuardrailValue>;
  objects: ObjectRef[];
  unplaceable: string[];
  transactionControl: boolean;
  /** Upper-case keywords the tree accounts for (DELETE when it holds a DELETE, CREATE for SHOW CREATE …). */
  explained: Set<string>;
  /** Reasons the analyser itself doubts its reading. */
  doubts: string[];
  /** The statement changes how later unqualified names resolve (USE, SET search_path). */
  changesResolution?: boolean;
  /** PREPARE name …: the prepared statement's guardrails are inherited by a later EXECUTE name. */
  prepares?: string;
  /** EXECUTE name: runs a prepared statement. */
  executes?: string;
  /** The statement runs SQL held in string literals (EXECUTE '…', EXEC(…), DO $$…$$, PREPARE … FROM '…'). */
  dynamic?: boolean;
}

export function emptyAnalysis(statementType: StatementType, kind: Access): Analysis {
  return {
    statementType,
    kind,
    guardrails: new Set(),
    objects: [],
    unplaceable: [],
    transactionControl: false,
    explained: new Set(),
    doubts: [],
  };
}
