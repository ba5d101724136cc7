// The engines the classifier reads, from the engine descriptors (providers/<engine>/engine.ts carries its
// `classifier` rules; providers/classifier-rules.ts says what they mean): per engine with SQL, the parser
// family, the grammars, how the text is split, the engine's lexical rules and the alternative readings whose
// disagreement makes a statement doubtful; per engine without SQL, the reader of its own request language.
// An engine naming no rules has no entry here, so classifyScript fails closed on it.
import type {
  ClassifierRules,
  RequestReader,
  SplitterPreset,
  SqlClassifierRules,
} from '../../providers/classifier-rules.js';
import { ENGINES } from '../../providers/registry.js';
import type { ProviderFactory } from '../../providers/types.js';
import type { SqlDialect } from '../../sql/dialect.js';

export type { LexOptions } from '../../providers/classifier-rules.js';

/** A classifier dialect: the id of an engine whose descriptor carries SQL classifier rules. */
export type Dialect = string;

export interface ClassifierDialectInfo extends Omit<SqlClassifierRules, 'split'> {
  /** Splitting under src/sql (the same split the executor uses), or a dbgate option set of our own. */
  split: { sql: SqlDialect } | { options: SplitterPreset };
}

interface Entry {
  engine: ProviderFactory;
  rules: ClassifierRules;
}

const BY_NAME = new Map<string, Entry>();
for (const engine of ENGINES as readonly ProviderFactory[]) {
  if (!engine.classifier) continue;
  const entry = { engine, rules: engine.classifier };
  BY_NAME.set(engine.engine, entry);
  for (const alias of engine.classifier.aliases ?? []) BY_NAME.set(alias, entry);
}

/** The engine id a name is classified as (an alias resolves to its engine), or undefined without rules. */
export function classifierEngine(name: string): string | undefined {
  return BY_NAME.get(name)?.engine.engine;
}

/** The reader of the engine's own request language, when its descriptor names one. */
export function classifierReader(name: string): RequestReader | undefined {
  return BY_NAME.get(name)?.rules.reader;
}

/** Engines whose statements the SQL grammars read. */
export const CLASSIFIER_DIALECTS: readonly Dialect[] = (ENGINES as readonly ProviderFactory[])
  .filter((e) => e.classifier?.sql)
  .map((e) => e.engine);

export function isClassifierDialect(value: string): value is Dialect {
  return CLASSIFIER_DIALECTS.includes(value);
}

function info(engine: ProviderFactory, sql: SqlClassifierRules): ClassifierDialectInfo {
  return { ...sql, split: sql.split === 'executor' ? { sql: engine.sqlDialect } : sql.split };
}

/** The SQL rules by classifier dialect (an engine id). */
export const CLASSIFIER_DIALECT_INFO: Readonly<Record<Dialect, ClassifierDialectInfo>> = Object.fromEntries(
  (ENGINES as readonly ProviderFactory[]).flatMap((e) =>
    e.classifier?.sql ? [[e.engine, info(e, e.classifier.sql)]] : [],
  ),
);
