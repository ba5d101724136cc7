// Refusing statements that use a masked column anywhere its value can steer the result without being shown:
// WHERE/HAVING/JOIN ON/USING/ORDER BY/GROUP BY/PARTITION BY/QUALIFY clauses and subqueries. Masking the output
// alone leaks through such probes (`WHERE email LIKE 'a%'` answers bit by bit which rows match; ORDER BY sorts
// by the hidden value), so for a caller who sees a column masked, the column may appear only where its value
// itself is returned (and masked): the select list of the outermost SELECT (lineage masks every expression
// there that reads it), and the write positions INSERT … (columns) VALUES …, UPDATE … SET, RETURNING.
// A qualified star (`u.*`) in a steering position counts too: a whole row cast to text carries the column; so
// does a positional `ORDER BY 1` / `GROUP BY 1` when the outer select list shows a masked column or `*`.
// Pure (tokens in, verdict out) so the rule is tested table-driven.
import type { MaskingRule } from '../datasources/types.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './classify/dialects.js';
import type { StatementClassification } from './classify/index.js';
import { lex, type Token } from './classify/lexer.js';
import { applicableRules } from './masking.js';

/** Keywords after which a column name is only returned or written (never steers which rows or their order). */
const SHOWING = new Set(['SET', 'VALUES', 'INTO', 'RETURNING']);
/** Keywords that start a clause where a value steers the result (or feeds another query). */
const STEERING = new Set([
  'FROM',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'QUALIFY',
  'WINDOW',
  'JOIN',
  'ON',
  'USING',
  'PARTITION',
  'CONNECT',
  'START',
  'LIMIT',
  'OFFSET',
  'FETCH',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'MINUS',
  'WITH',
  'MATCH',
  'PIVOT',
  'UNPIVOT',
  'SAMPLE',
  'TABLESAMPLE',
]);

/** Statements whose own syntax names columns without reading them (`CREATE INDEX … ON t (email)`). */
const DEFINING = new Set(['CREATE', 'ALTER', 'DROP', 'COMMENT', 'GRANT', 'REVOKE', 'TRUNCATE', 'RENAME']);

type Clause = 'showing' | 'steering' | 'defining';

export interface MaskedPredicate {
  /** The masked column as written (lower case). */
  column: string;
  /** The clause keyword it appeared under (lower case), or `subquery`. */
  clause: string;
}

/**
 * The first masked column (of the rules that apply to this statement) used in a steering position, or
 * undefined. `dialect` undefined (no SQL grammar) is not checked: such engines have no predicates of this kind.
 */
export function findMaskedPredicate(
  rules: readonly MaskingRule[],
  dialect: Dialect | undefined,
  statement: StatementClassification | undefined,
  text = statement?.text ?? '',
): MaskedPredicate | undefined {
  const masked = applicableRules(rules, statement);
  if (masked.size === 0) return undefined;
  if (!dialect) {
    // Engines without SQL grammar name their steering field paths themselves (a document filter or sort);
    // a masked name on any segment of a path steers by the masked value.
    const hit = statement?.steering?.find(
      (s) =>
        s.field === '*' ||
        s.field
          .toLowerCase()
          .split('.')
          .some((part) => masked.has(part)),
    );
    return hit ? { column: hit.field, clause: hit.clause } : undefined;
  }
  const { tokens } = lex(text, CLASSIFIER_DIALECT_INFO[dialect].lex);
  return scan(tokens, masked);
}

function scan(tokens: readonly Token[], masked: ReadonlyMap<string, unknown>): MaskedPredicate | undefined {
  // One frame per parenthesis depth: the clause its tokens are in, and the keyword that set it.
  const start = (t: Token | undefined): { clause: Clause; keyword: string } => ({
    clause: t?.kind === 'word' && DEFINING.has(t.value) ? 'defining' : 'showing',
    keyword: 'statement',
  });
  const frames = [start(tokens[0])];
  // Whether the outer select list shows a masked column (or every column), and a positional ORDER/GROUP BY.
  let outerShowsMasked = false;
  let positional: MaskedPredicate | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const frame = frames[frames.length - 1];
    if (t.kind === 'semi') {
      frames.length = 1;
      frames[0] = start(tokens[i + 1]);
      continue;
    }
    if (frame.keyword === 'select' && frame.clause === 'showing') {
      if ((t.kind === 'word' || t.kind === 'qident') && masked.has(t.value.toLowerCase()))
        outerShowsMasked = true;
      if (t.kind === 'op' && t.value === '*') outerShowsMasked = true;
    }
    if (t.kind === 'number' && (frame.keyword === 'order' || frame.keyword === 'group') && !positional) {
      positional = { column: `position ${t.value}`, clause: frame.keyword };
    }
    if (t.kind === 'op' && t.value === '(') {
      // A parenthesis inherits its clause (`upper(email)` in the select list stays in the select list).
      frames.push({ ...frame });
      continue;
    }
    if (t.kind === 'op' && t.value === ')') {
      if (frames.length > 1) frames.pop();
      continue;
    }
    if (t.kind === 'word') {
      const prev = tokens[i - 1];
      const qualified = prev?.kind === 'op' && prev.value === '.';
      // A definition names columns freely until it embeds a query (`CREATE VIEW … AS SELECT …`).
      if (frame.clause === 'defining' && t.value !== 'SELECT') continue;
      if (!qualified && t.value === 'SELECT') {
        // Only the outermost select list returns (masked) values; a subquery's feeds the query around it.
        frame.clause = frames.length === 1 ? 'showing' : 'steering';
        frame.keyword = frames.length === 1 ? 'select' : 'subquery';
        continue;
      }
      if (!qualified && SHOWING.has(t.value)) {
        frame.clause = 'showing';
        frame.keyword = t.value.toLowerCase();
        continue;
      }
      if (!qualified && STEERING.has(t.value)) {
        frame.clause = 'steering';
        frame.keyword = t.value.toLowerCase();
        continue;
      }
    }
    if (frame.clause !== 'steering') continue;
    if ((t.kind === 'word' || t.kind === 'qident') && masked.has(t.value.toLowerCase())) {
      // A name right after AS is an alias being declared, not a read of the column.
      const prev = tokens[i - 1];
      if (prev?.kind === 'word' && prev.value === 'AS') continue;
      return { column: t.value.toLowerCase(), clause: frame.keyword };
    }
    if (t.kind === 'op' && t.value === '*' && tokens[i - 1]?.kind === 'op' && tokens[i - 1].value === '.') {
      return { column: '*', clause: frame.keyword };
    }
  }
  return outerShowsMasked ? positional : undefined;
}

/** The refusal a person can act on (403 `MASKED_COLUMN_PREDICATE`). */
export function maskedPredicateMessage(found: MaskedPredicate): string {
  const where = found.clause === 'subquery' ? 'a subquery' : found.clause.toUpperCase();
  if (found.column === '*')
    return `A whole-row reference in ${where} would read masked columns; name the columns instead`;
  if (found.column.startsWith('position ')) {
    return `${where} BY ${found.column.slice(9)} would sort or group by a masked column; name an unmasked column instead`;
  }
  return `Column "${found.column}" is masked and cannot be used in ${where}: its hidden values would steer the result`;
}
