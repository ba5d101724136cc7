// Shapes of the seed-data feature (database-portal.md "Seed plan", "Seed run"): the schema as the reader
// sees it, the plan in fill order, and the run with its per-table progress. Plain data, no I/O.

/** Engine family whose catalog and SQL the seed code speaks; decided from the provider's dialect. */
export type SeedFamily = 'postgres' | 'mysql';

export interface SeedColumn {
  name: string;
  /** The engine's type name, lower case (`integer`, `character varying`, `enum`, `int`, `varchar` …). */
  type: string;
  nullable: boolean;
  /** Filled by the database (serial, identity, auto_increment, computed): generate mode gives no value. */
  generated: boolean;
  /** Computed from other columns (GENERATED ALWAYS AS …): no mode may give a value. */
  computed: boolean;
  /** PostgreSQL identity column: a copy that keeps its values says OVERRIDING SYSTEM VALUE. */
  identity: boolean;
  /** Has a default: optional when nullable values are wanted. */
  hasDefault: boolean;
  maxLength?: number;
  numericPrecision?: number;
  numericScale?: number;
  /** Allowed values of an enum type (PostgreSQL enum or MySQL ENUM). */
  enumValues?: string[];
}

export interface SeedForeignKey {
  name: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface SeedTable {
  name: string;
  columns: SeedColumn[];
  primaryKey: string[];
  /** Unique constraints and unique indexes (the primary key included). */
  unique: string[][];
  /** Check constraint expressions as the engine prints them. */
  checks: string[];
  foreignKeys: SeedForeignKey[];
}

export interface SeedSchema {
  schema: string;
  tables: SeedTable[];
}

/** One table of the plan, in fill order. */
export interface PlannedTable {
  name: string;
  columns: Array<{ name: string; type: string; nullable: boolean }>;
  /** Tables that must be filled first (parents through foreign keys, cycle-breaking keys left out). */
  dependsOn: string[];
  /** Rows the run inserts (counts, then ratios, then the default). */
  rows: number;
  /** Foreign keys left null on insert and filled by an update once their parent is filled (cycle breaks). */
  deferredKeys?: string[];
}

export interface SeedPlan {
  schema: string;
  tables: PlannedTable[];
  /** What the planner had to decide (cycles broken, cycles it could not break). */
  notes: string[];
}

export type SeedRunStatus = 'queued' | 'running' | 'done' | 'failed';
export type SeedMode = 'generate' | 'copy';

export interface SeedRunTable {
  name: string;
  /** Rows the run meant to insert. */
  target: number;
  inserted: number;
  status: 'pending' | 'running' | 'done' | 'failed' | 'lost';
  error?: string;
}

export interface SeedRequest {
  datasourceId: string;
  schema?: string;
  counts?: Record<string, number>;
  ratios?: Record<string, number>;
  mode: SeedMode;
  sourceDatasourceId?: string;
  truncate: boolean;
}

export interface SeedRun {
  id: string;
  status: SeedRunStatus;
  mode: SeedMode;
  datasourceId: string;
  schema: string;
  sourceName?: string;
  sourceId?: string;
  jobId: string;
  tables: SeedRunTable[];
  error?: string;
  actor: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}
