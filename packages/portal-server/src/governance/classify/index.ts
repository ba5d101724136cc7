// Statement classifier (database-portal.md "Rules for scripts", guardrail values, Errors 6; decisions.md
// "classification"): splits a script as the executor does and classifies every statement with the
// engine's real parser, cross-checked by a lexer that follows the engine's rules. Fails closed: an
// unknown engine, an unreadable or doubtful statement is a write.

import { lexicalRules, type RequestReader } from '../../providers/classifier-rules.js';
import { engineDescriptor } from '../../providers/registry.js';
import { splitScript } from '../../sql/split.js';
import { columnarReading } from './clickhouse.js';
import { classifyN1ql } from './couchbase.js';
import {
  CLASSIFIER_DIALECT_INFO,
  CLASSIFIER_DIALECTS,
  classifierEngine,
  classifierReader,
  type Dialect,
  isClassifierDialect,
} from './dialects.js';
import { firstGuardrail, orderGuardrails } from './guardrails.js';
import { keywordGuardrails } from './keywords.js';
import { classifyLevel } from './leveldb.js';
import { lex } from './lexer.js';
import { classifyMongo } from './mongodb.js';
import { objectRuleViolation, unplaceableEntry } from './objects.js';
import { classifyRedis } from './redis.js';
import { splitStatements } from './split.js';
import { classifyStatement, type ScriptState } from './statement.js';
import { judgedByAllowlist } from './token-allowlist.js';
import { federatedSessionStatement } from './trino.js';
import type { ClassifyOptions, ScriptClassification, StatementClassification } from './types.js';

export type { Dialect } from './dialects.js';
export type { ObjectRules, ObjectRuleViolation } from './objects.js';
export type {
  Access,
  ClassifyOptions,
  GuardrailValue,
  ObjectRef,
  ScriptClassification,
  StatementClassification,
  StatementType,
} from './types.js';
export { EFFECT_GUARDRAILS, GUARDRAIL_VALUES } from './types.js';
export { CLASSIFIER_DIALECTS, firstGuardrail, isClassifierDialect, objectRuleViolation };

/**
 * The readers of engines' own request languages: a key-value command judged from the client library's
 * command flags, an ordered key store's small grammar, a JSON document request, and SQL++ read by the
 * engine's own statement reader (split exactly as the executor splits it).
 */
const READERS: Record<
  RequestReader,
  (sql: string, engine: string) => ScriptClassification | Promise<ScriptClassification>
> = {
  'command-flags': (sql) => classifyRedis(sql),
  'ordered-keys': (sql) => classifyLevel(sql),
  'document-request': (sql) => classifyMongo(sql),
  sqlpp: (sql, engine) => classifyN1ql(splitScript(splitDialectOf(engine), sql), sql),
};

/** The executor's dialect of a registered engine (readers only exist for registered engines). */
function splitDialectOf(engine: string) {
  const descriptor = engineDescriptor(engine);
  if (!descriptor) throw new Error(`No engine ${engine}`);
  return descriptor.sqlDialect;
}

function summarize(statements: StatementClassification[]): ScriptClassification {
  return {
    statements,
    isWrite: statements.some((s) => s.kind === 'write'),
    guardrails: orderGuardrails(statements.flatMap((s) => s.guardrails)),
    transactionControl: statements.some((s) => s.transactionControl),
  };
}

/** An engine the classifier has no grammar for: the whole text is one doubtful write. */
function unknownDialect(sql: string, dialect: string): ScriptClassification {
  const lexed = lex(sql, lexicalRules.ansi);
  return summarize([
    {
      index: 0,
      text: sql,
      kind: 'write',
      statementType: 'UNKNOWN',
      guardrails: orderGuardrails(keywordGuardrails(lexed.tokens)),
      objects: [],
      unplaceable: [unplaceableEntry('statement', `no SQL grammar for engine "${dialect}"`)],
      transactionControl: false,
      doubtful: true,
      reason: `no SQL grammar for engine "${dialect}"`,
    },
  ]);
}

/**
 * Classifies every statement of `sql` for the engine `dialect` (an engine id, or an alias its descriptor's
 * classifier rules name; a registered engine's own dialect without SQL grammar is accepted). `defaultSchema`
 * fills the schema of unqualified names.
 */
export async function classifyScript(
  sql: string,
  dialect: Dialect,
  options: ClassifyOptions = {},
): Promise<ScriptClassification> {
  const id = classifierEngine(dialect) ?? dialect;
  const reader = classifierReader(id);
  if (reader) return READERS[reader](sql, id);
  if (!isClassifierDialect(id)) return unknownDialect(sql, id);
  const info = CLASSIFIER_DIALECT_INFO[id];
  const state: ScriptState = {
    prepared: new Map(),
    resolutionChanged: false,
    defaultSchema: options.defaultSchema,
  };
  const statements: StatementClassification[] = [];
  const pieces = splitStatements(sql, id);
  for (let i = 0; i < pieces.length; i++) {
    // ClickHouse's own forms (trailing SETTINGS/FORMAT, ALTER TABLE … DELETE/UPDATE mutations) are judged
    // as the standard SQL they mean; the statement keeps its own text.
    // Trino's session statements are answered by the provider and never reach the engine.
    const session = info.providerSessionStatements
      ? federatedSessionStatement(pieces[i], i, info.lex)
      : undefined;
    if (session) {
      statements.push(session);
      continue;
    }
    const reading = info.columnarForms
      ? columnarReading(pieces[i], info.lex)
      : (info.reading?.(pieces[i], lex(pieces[i], info.lex).tokens) ?? pieces[i]);
    const c = await classifyStatement(reading, i, id, state);
    // The engine's allowlist judges the statement as written (fail closed: what it does not know writes).
    statements.push(judgedByAllowlist(reading === pieces[i] ? c : { ...c, text: pieces[i] }, id));
  }
  // The splitter and the engine's lexer must agree on the script's code: text the splitter dropped or
  // merged (a MariaDB `/*M! … */`, a comment style it does not know) is classified as one doubtful whole.
  if (
    codeWords(sql, id) !==
    pieces
      .map((p) => codeWords(p, id))
      .filter(Boolean)
      .join(' ')
  ) {
    const doubt = 'the statement splitter and the lexer disagree about the script';
    statements.push(await classifyStatement(sql, pieces.length, id, state, 0, doubt));
  }
  return summarize(statements);
}

/** Words the splitter consumes itself (batch and delimiter commands). */
const SPLITTER_WORDS = new Set(['GO', 'DELIMITER']);

function codeWords(text: string, dialect: Dialect): string {
  const lx = lex(text, CLASSIFIER_DIALECT_INFO[dialect].lex);
  // A custom delimiter such as `$$` sticks to the word before it (`END$$`).
  const words = lx.tokens
    .filter((t) => t.kind === 'word' && !SPLITTER_WORDS.has(t.value))
    .map((t) => t.value.replace(/\$+$/, ''));
  return words.join(' ');
}

/** The classifier dialect for a datasource engine id, or undefined for engines without SQL. */
export function dialectForEngine(engine: string): Dialect | undefined {
  const id = classifierEngine(engine);
  return id !== undefined && isClassifierDialect(id) ? id : undefined;
}
