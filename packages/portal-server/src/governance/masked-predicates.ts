// Refusing statements that use a masked column anywhere its value can steer the result without being shown:
// WHERE/HAVING/JOIN ON/USING/ORDER BY/GROUP BY/PARTITION BY/QUALIFY clauses and subqueries. Masking the output
// alone leaks through such probes (`WHERE email LIKE 'a%'` answers bit by bit which rows match; ORDER BY sorts
// by the hidden value), so for a caller who sees a column masked, the column may appear only where its value
// itself is returned (and masked): the select list of the outermost SELECT (lineage masks every expression
// there that reads it), and the write positions INSERT … (columns) VALUES …, UPDATE … SET, RETURNING.
// A qualified star (`u.*`) in a steering position counts too: a whole row cast to text carries the column; so
// does a positional `ORDER BY 2` / `GROUP BY 2` when the outer select list's second item reads a masked column,
// or a star (`*`, `u.*`) stands at or before it (its columns are not known here); `count(*)` is no star.
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

/** Statements that store what they read. */
const COPYING = new Set(['INSERT', 'UPDATE', 'MERGE', 'REPLACE', 'UPSERT']);
/** Words of a select item that are not names of it. */
const ITEM_WORDS = new Set([
  'AS',
  'DISTINCT',
  'ALL',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'AND',
  'OR',
  'NOT',
  'NULL',
  'IS',
  'IN',
  'LIKE',
  'ILIKE',
  'BETWEEN',
  'TRUE',
  'FALSE',
  'SELECT',
]);

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
  return wholeRow(tokens) ?? scan(tokens, masked);
}

/** Words that end a relation declaration (`FROM t WHERE`) rather than name its alias. */
const NOT_ALIAS = new Set([
  ...STEERING,
  ...SHOWING,
  'SELECT',
  'SET',
  'AS',
  'LEFT',
  'RIGHT',
  'INNER',
  'OUTER',
  'FULL',
  'CROSS',
  'NATURAL',
  'LATERAL',
  'DEFAULT',
  'ONLY',
]);
const DECLARES = new Set(['FROM', 'JOIN', 'UPDATE', 'INTO', 'TABLE', 'USING']);
const isName = (t: Token | undefined) => t?.kind === 'word' || t?.kind === 'qident';
const isOpTok = (t: Token | undefined, v: string) => t?.kind === 'op' && t.value === v;

/**
 * Whole rows and the engine's own column expansions carry every column, masked ones too (issue 27): a
 * relation or alias used as a value (`t::text`, `to_jsonb(t)`, `row_to_json(u)`, DuckDB `t::VARCHAR`), a
 * qualified star inside a function (`to_json(u.*)`), DuckDB's `COLUMNS(…)` and `SUMMARIZE`.
 */
function wholeRow(tokens: readonly Token[]): MaskedPredicate | undefined {
  if (tokens[0]?.kind === 'word' && tokens[0].value === 'SUMMARIZE')
    return { column: '*', clause: 'summarize' };
  const relations = new Set<string>();
  const declared = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const afterList = isOpTok(t, ',') && relations.size > 0;
    if (!(t.kind === 'word' && DECLARES.has(t.value)) && !afterList) continue;
    let j = i + 1;
    while (isName(tokens[j]) && isOpTok(tokens[j + 1], '.') && isName(tokens[j + 2])) j += 2;
    if (!isName(tokens[j]) || NOT_ALIAS.has(tokens[j].value)) continue;
    if (afterList && !isName(tokens[j + 1]) && !isOpTok(tokens[j + 1], ',')) continue;
    relations.add(tokens[j].value.toLowerCase());
    declared.add(j);
    let k = j + 1;
    if (tokens[k]?.kind === 'word' && tokens[k].value === 'AS') k++;
    if (isName(tokens[k]) && !NOT_ALIAS.has(tokens[k].value)) {
      relations.add(tokens[k].value.toLowerCase());
      declared.add(k);
    }
  }
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isOpTok(t, '(')) depth++;
    if (isOpTok(t, ')')) depth--;
    if (t.kind === 'word' && t.value === 'COLUMNS' && isOpTok(tokens[i + 1], '('))
      return { column: '*', clause: 'columns' };
    if (isOpTok(t, '*') && depth > 0 && isOpTok(tokens[i - 1], '.'))
      return { column: '*', clause: 'function' };
    if (!isName(t) || declared.has(i) || !relations.has(t.value.toLowerCase())) continue;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (isOpTok(prev, '.') || isOpTok(next, '.') || isOpTok(next, '(')) continue;
    // N1QL's META(alias) answers the document's id, CAS and expiry, none of its fields.
    if (isOpTok(prev, '(') && tokens[i - 2]?.kind === 'word' && tokens[i - 2].value === 'META') continue;
    if (next?.kind === 'word' && next.value === 'AS' && isOpTok(tokens[i + 2], '(')) continue; // a CTE
    return { column: '*', clause: 'whole row' };
  }
  return undefined;
}

function scan(tokens: readonly Token[], masked: ReadonlyMap<string, unknown>): MaskedPredicate | undefined {
  // One frame per parenthesis depth: the clause its tokens are in, and the keyword that set it.
  const start = (t: Token | undefined): { clause: Clause; keyword: string } => ({
    clause: t?.kind === 'word' && DEFINING.has(t.value) ? 'defining' : 'showing',
    keyword: 'statement',
  });
  const frames = [start(tokens[0])];
  // The outer select list, item by item: whether each reads a masked column or is a star (the select lists
  // of a UNION's branches are merged position by position, as their columns are); and the positional
  // ORDER/GROUP BY references, checked against those items at the end.
  let items: { masked: boolean; star: boolean; names: Set<string> }[] = [];
  let cur = -1;
  // A statement that writes or defines copies what its SELECT reads: masked values may not flow there.
  const head = tokens[0]?.kind === 'word' ? tokens[0].value : '';
  const copying = COPYING.has(head) || frames[0].clause === 'defining';
  const newItem = () => ({ masked: false, star: false, names: new Set<string>() });
  let positions: { at: number; found: MaskedPredicate }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const frame = frames[frames.length - 1];
    if (t.kind === 'semi') {
      const hit = positionalHit(items, positions);
      if (hit) return hit;
      items = [];
      cur = -1;
      positions = [];
      frames.length = 1;
      frames[0] = start(tokens[i + 1]);
      continue;
    }
    if (frame.keyword === 'select' && frame.clause === 'showing') {
      const item = items[cur];
      if (item && (t.kind === 'word' || t.kind === 'qident') && masked.has(t.value.toLowerCase()))
        item.masked = true;
      if (item && t.kind === 'op' && t.value === '*' && isStar(tokens[i - 1], frames.length))
        item.star = true;
      // The names an output column goes by (its alias, its column): a WHERE or ORDER BY naming one steers by it.
      if (
        item &&
        frames.length === 1 &&
        isName(t) &&
        !isOpTok(tokens[i + 1], '(') &&
        !isOpTok(tokens[i + 1], '.') &&
        !ITEM_WORDS.has(t.value)
      )
        item.names.add(t.value.toLowerCase());
      if (frames.length === 1 && t.kind === 'op' && t.value === ',') {
        cur += 1;
        items[cur] ??= newItem();
      }
    }
    if (t.kind === 'number' && (frame.keyword === 'order' || frame.keyword === 'group')) {
      positions.push({
        at: Number(t.value),
        found: { column: `position ${t.value}`, clause: frame.keyword },
      });
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
        if (copying) {
          // INSERT … SELECT, CREATE TABLE … AS SELECT: every value read is copied somewhere else.
          frame.clause = 'steering';
          frame.keyword = 'copy';
          continue;
        }
        frame.clause = frames.length === 1 ? 'showing' : 'steering';
        frame.keyword = frames.length === 1 ? 'select' : 'subquery';
        if (frames.length === 1) {
          cur = 0;
          items[0] ??= newItem();
        }
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
    // UPDATE … SET x = email copies the masked value; `SET email = …` only writes the column.
    if (
      frame.keyword === 'set' &&
      isName(t) &&
      masked.has(t.value.toLowerCase()) &&
      !isOpTok(tokens[i + 1], '=') &&
      !isOpTok(tokens[i - 1], '.')
    ) {
      return { column: t.value.toLowerCase(), clause: 'set' };
    }
    if (frame.clause !== 'steering') continue;
    if (copying && frame.keyword === 'copy' && isOpTok(t, '*') && frames.length === 1) {
      return { column: '*', clause: 'copy' };
    }
    if (
      isName(t) &&
      !isOpTok(tokens[i - 1], '.') &&
      !isOpTok(tokens[i + 1], '.') &&
      !(tokens[i - 1]?.kind === 'word' && tokens[i - 1].value === 'AS') &&
      items.some((item) => item.masked && item.names.has(t.value.toLowerCase())) &&
      !masked.has(t.value.toLowerCase())
    ) {
      // A select-list alias (or a UNION's column) that carries masked values, used in WHERE/ORDER BY.
      return { column: t.value.toLowerCase(), clause: frame.keyword };
    }
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
  return positionalHit(items, positions);
}

/** `*` selects every column after SELECT/DISTINCT/ALL or a comma at the top level, or after `alias.` anywhere. */
function isStar(prev: Token | undefined, depth: number): boolean {
  if (prev?.kind === 'op' && prev.value === '.') return true;
  if (depth !== 1) return false;
  if (prev?.kind === 'op' && prev.value === ',') return true;
  return (
    prev?.kind === 'word' && (prev.value === 'SELECT' || prev.value === 'DISTINCT' || prev.value === 'ALL')
  );
}

/** The first positional reference to a masked item, or to a position a star may cover. */
function positionalHit(
  items: readonly { masked: boolean; star: boolean }[],
  positions: readonly { at: number; found: MaskedPredicate }[],
): MaskedPredicate | undefined {
  const starAt = items.findIndex((item) => item.star);
  for (const { at, found } of positions) {
    if (items[at - 1]?.masked) return found;
    if (starAt >= 0 && starAt < at) return found;
  }
  return undefined;
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
