// Classifies SQL++ (N1QL, the document engine over REST) statements. No general SQL grammar reads SQL++
// (three-part backticked keyspaces, UPSERT, USE KEYS, object literals), so each statement is read by the
// engine's own reader (providers/couchbase/statement.ts): SELECT, WITH … SELECT, INFER, EXPLAIN and ADVISE
// read (the query service plans but never executes the statement behind EXPLAIN and ADVISE); INSERT,
// UPSERT, UPDATE, DELETE, MERGE and every DDL (CREATE/BUILD/ALTER/DROP INDEX, scopes, collections,
// functions) write. Guardrails: DELETE → delete (and delete_without_where without WHERE or USE KEYS),
// UPDATE without either → update_without_where, DROP → drop, GRANT/REVOKE → grant. A SELECT calling a
// function the language does not define (a user-defined function can run writes; CURL reaches the network)
// or naming a write keyword is a doubtful write; anything unknown fails closed.
import {
  filterOf,
  leadingWord,
  lexN1ql,
  scanKeyspaces,
  type Token,
} from '../../providers/couchbase/statement.js';
import { orderGuardrails } from './guardrails.js';
import { addObject, unplaceableEntry } from './objects.js';
import type {
  GuardrailValue,
  ObjectRef,
  ScriptClassification,
  StatementClassification,
  StatementType,
} from './types.js';

/** Built-in SQL++ functions a read may call (everything else may be a user-defined function that writes). */
const BUILTINS = new Set(
  `META COUNT SUM AVG MIN MAX ARRAY_AGG COUNTN MEAN MEDIAN STDDEV VARIANCE ABS CEIL FLOOR ROUND TRUNC SQRT
  POWER EXP LN LOG SIGN RANDOM PI DEGREES RADIANS SIN COS TAN ASIN ACOS ATAN ATAN2 LOWER UPPER LENGTH
  SUBSTR SUBSTR0 SUBSTR1 CONCAT CONCAT2 CONTAINS POSITION POSITION0 POSITION1 REPLACE TRIM LTRIM RTRIM SPLIT
  TITLE INITCAP REVERSE REPEAT REGEXP_CONTAINS REGEXP_LIKE REGEXP_POSITION REGEXP_REPLACE REGEXP_MATCHES
  REGEXP_SPLIT LPAD RPAD MASK SUFFIXES TOKENS ARRAY_APPEND ARRAY_AVG ARRAY_CONCAT ARRAY_CONTAINS ARRAY_COUNT
  ARRAY_DISTINCT ARRAY_FLATTEN ARRAY_IFNULL ARRAY_INSERT ARRAY_INTERSECT ARRAY_LENGTH ARRAY_MAX ARRAY_MIN
  ARRAY_POSITION ARRAY_PREPEND ARRAY_PUT ARRAY_RANGE ARRAY_REMOVE ARRAY_REPEAT ARRAY_REPLACE ARRAY_REVERSE
  ARRAY_SORT ARRAY_STAR ARRAY_SUM ARRAY_UNION ARRAY_SYMDIFF ARRAY_EXCEPT ARRAY_BINARY_SEARCH ARRAY_MOVE
  OBJECT_ADD OBJECT_CONCAT OBJECT_INNER_PAIRS OBJECT_INNER_VALUES OBJECT_LENGTH OBJECT_NAMES OBJECT_PAIRS
  OBJECT_PUT OBJECT_REMOVE OBJECT_RENAME OBJECT_REPLACE OBJECT_UNWRAP OBJECT_VALUES OBJECT_FIELD OBJECT_PATHS
  IFMISSING IFMISSINGORNULL IFNULL IFNAN IFINF NANIF NEGINFIF POSINFIF MISSINGIF NULLIF COALESCE NVL NVL2
  DECODE GREATEST LEAST ISARRAY ISATOM ISBOOLEAN ISNUMBER ISOBJECT ISSTRING TYPE TYPENAME TOARRAY TOATOM
  TOBOOLEAN TONUMBER TOOBJECT TOSTRING TO_ARRAY TO_ATOM TO_BOOLEAN TO_NUMBER TO_OBJECT TO_STRING
  IS_ARRAY IS_ATOM IS_BOOLEAN IS_NUMBER IS_OBJECT IS_STRING CLOCK_MILLIS CLOCK_STR CLOCK_LOCAL CLOCK_TZ
  CLOCK_UTC DATE_ADD_MILLIS DATE_ADD_STR DATE_DIFF_MILLIS DATE_DIFF_STR DATE_DIFF_ABS_MILLIS DATE_DIFF_ABS_STR
  DATE_FORMAT_STR DATE_PART_MILLIS DATE_PART_STR DATE_RANGE_MILLIS DATE_RANGE_STR DATE_TRUNC_MILLIS
  DATE_TRUNC_STR DURATION_TO_STR MILLIS MILLIS_TO_STR MILLIS_TO_UTC MILLIS_TO_LOCAL MILLIS_TO_TZ MILLIS_TO_ZONE_NAME
  NOW_LOCAL NOW_MILLIS NOW_STR NOW_TZ NOW_UTC STR_TO_DURATION STR_TO_MILLIS STR_TO_UTC STR_TO_TZ
  STR_TO_ZONE_NAME WEEKDAY_MILLIS WEEKDAY_STR BASE64 BASE64_ENCODE BASE64_DECODE DECODE_JSON ENCODE_JSON
  ENCODED_SIZE POLY_LENGTH JSON_DECODE JSON_ENCODE UUID HASHBYTES PAIRS ROW_NUMBER RANK DENSE_RANK
  PERCENT_RANK CUME_DIST NTILE LAG LEAD FIRST_VALUE LAST_VALUE NTH_VALUE RATIO_TO_REPORT DS_VERSION
  VERSION MIN_VERSION ABORT SEARCH SEARCH_META SEARCH_SCORE`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that may stand before `(` without being a function call. */
const NOT_CALLS = new Set(
  `IN EXISTS ANY EVERY SOME SATISFIES FROM JOIN NEST UNNEST AS VALUES VALUE NOT AND OR WHEN THEN ELSE CASE
  SELECT WHERE ON BY RAW ELEMENT DISTINCT ARRAY FIRST OBJECT WITHIN LIKE BETWEEN USE KEYS INDEX LET LETTING
  HAVING WITH OVER PARTITION FILTER IS UNION INTERSECT EXCEPT ALL LIMIT OFFSET KEY INTO SET RETURNING
  FOR END USING ORDER GROUP WINDOW ROWS RANGE GROUPS PRECEDING FOLLOWING CURRENT RESPECT IGNORE NULLS`
    .split(/\s+/)
    .filter(Boolean),
);

const WRITE_WORDS = new Set([
  'INSERT',
  'UPSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'DROP',
  'CREATE',
  'ALTER',
  'BUILD',
  'GRANT',
  'REVOKE',
  'EXECUTE',
  'PREPARE',
]);
const TRANSACTION_WORDS = new Set(['BEGIN', 'START', 'COMMIT', 'ROLLBACK', 'SAVEPOINT']);

/** Why a read might not only read: a write word or a call of something not built in. */
function readDoubt(tokens: Token[]): string | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word') continue;
    if (WRITE_WORDS.has(t.value)) return `${t.value} inside a read`;
    if (tokens[i + 1]?.value === '(' && !NOT_CALLS.has(t.value) && tokens[i - 1]?.value !== '.') {
      if (!BUILTINS.has(t.value))
        return `${t.value}() is not a built-in function (a user-defined function may write)`;
    }
    if (tokens[i + 1]?.value === '(' && tokens[i - 1]?.value === '.')
      return `${t.value}() is a scoped user-defined function (it may write)`;
  }
  return undefined;
}

function objectsOf(
  tokens: Token[],
  access: 'read' | 'write',
): { objects: ObjectRef[]; unplaceable: string[] } {
  const scan = scanKeyspaces(tokens);
  const objects: ObjectRef[] = [];
  for (const k of scan.keyspaces) addObject(objects, { schema: k.scope, name: k.collection, access });
  return { objects, unplaceable: scan.unplaceable.map((u) => unplaceableEntry(u.split(':')[0], u)) };
}

/** One statement's classification. */
export function classifyN1qlStatement(text: string, index: number): StatementClassification {
  const lx = lexN1ql(text);
  const tokens = lx.tokens;
  const base = { index, text, transactionControl: false };
  const doubtful = (statementType: StatementType, reason: string, g: GuardrailValue[] = []) => ({
    ...base,
    kind: 'write' as const,
    statementType,
    guardrails: g,
    ...objectsOf(tokens, 'write'),
    doubtful: true,
    reason,
  });
  if (lx.unterminated)
    return {
      ...doubtful('UNKNOWN', 'unterminated string, identifier or comment'),
      objects: [],
      unplaceable: [],
    };
  if (tokens.some((t) => t.kind === 'semi'))
    return doubtful('UNKNOWN', 'the statement reader sees more than one statement here');
  // Strings with backslash escapes are read both ways: the words must not change.
  const shape = (l: { tokens: Token[]; unterminated: boolean }) =>
    `${l.unterminated}|${l.tokens.map((t) => (t.kind === 'word' ? t.value : t.kind === 'string' ? "'" : t.value)).join(' ')}`;
  if (shape(lexN1ql(text, false)) !== shape(lx))
    return doubtful('UNKNOWN', 'the statement reads differently when backslashes do not escape');
  const w1 = leadingWord(tokens);
  const w2 = tokens.find((t, i) => i > 0 && t.kind === 'word')?.value ?? '';
  const write = (statementType: StatementType, guardrails: GuardrailValue[] = []) => ({
    ...base,
    kind: 'write' as const,
    statementType,
    guardrails: orderGuardrails(guardrails),
    ...objectsOf(tokens, 'write'),
    doubtful: false,
  });
  const read = (statementType: StatementType) => {
    const doubt = readDoubt(tokens.slice(statementType === 'EXPLAIN' ? 1 : 0));
    if (doubt && statementType !== 'EXPLAIN') return doubtful(statementType, doubt);
    return {
      ...base,
      kind: 'read' as const,
      statementType,
      guardrails: [],
      ...objectsOf(tokens, 'read'),
      doubtful: false,
    };
  };
  switch (w1) {
    case 'SELECT':
    case 'WITH':
      return read('SELECT');
    case 'INFER':
      return read('DESCRIBE');
    // The query service returns the plan (or index advice) and never runs the statement behind it.
    case 'EXPLAIN':
    case 'ADVISE':
      return {
        ...base,
        kind: 'read',
        statementType: 'EXPLAIN',
        guardrails: [],
        ...objectsOf(tokens, 'read'),
        doubtful: false,
      };
    case 'INSERT':
    case 'UPSERT':
      return write('INSERT');
    case 'DELETE':
      return write(
        'DELETE',
        ['keys', 'where'].includes(filterOf(tokens)) ? ['delete'] : ['delete', 'delete_without_where'],
      );
    case 'UPDATE':
      if (w2 === 'STATISTICS') return write('ANALYZE');
      return write(
        'UPDATE',
        {
          keys: [],
          where: [],
          constant: ['update_always_true' as const],
          none: ['update_without_where' as const],
        }[filterOf(tokens)],
      );
    case 'MERGE':
      return write('MERGE', tokens.some((t) => t.value === 'DELETE') ? ['delete'] : []);
    case 'DROP':
      return write('DROP', ['drop']);
    case 'GRANT':
      return write('GRANT', ['grant']);
    case 'REVOKE':
      return write('REVOKE', ['grant']);
    case 'CREATE':
      return write('CREATE');
    case 'ALTER':
      return write('ALTER');
    case 'BUILD':
    case 'ANALYZE':
      return write(w1 === 'BUILD' ? 'OTHER' : 'ANALYZE');
    case 'EXECUTE':
    case 'PREPARE':
      return doubtful(
        w1 === 'EXECUTE' ? 'EXECUTE' : 'PREPARE',
        `${w1} runs a statement the reader cannot see`,
      );
    default:
      if (TRANSACTION_WORDS.has(w1) || (w1 === 'SET' && w2 === 'TRANSACTION'))
        return {
          ...base,
          kind: 'write',
          statementType: 'TRANSACTION',
          guardrails: [],
          objects: [],
          unplaceable: [],
          transactionControl: true,
          doubtful: false,
        };
      return doubtful(
        'UNKNOWN',
        w1 ? `${w1} is not a statement the portal knows: counted as a write` : 'no statement',
      );
  }
}

/**
 * Classifies the statements the executor will run (`pieces`, split with the engine's splitter). When the
 * splitter and the reader disagree about the words of the whole script, the whole text is one more doubtful
 * write, so nothing the engine might see is left unjudged.
 */
export function classifyN1ql(pieces: string[], whole: string): ScriptClassification {
  const statements = pieces.map((p, i) => classifyN1qlStatement(p, i));
  const words = (t: string) =>
    lexN1ql(t)
      .tokens.filter((x) => x.kind !== 'semi')
      .map((x) => `${x.kind}:${x.value}`)
      .join(' ');
  if (words(whole) !== pieces.map(words).filter(Boolean).join(' ') || pieces.length === 0) {
    const s = classifyN1qlStatement(whole, statements.length);
    statements.push({
      ...s,
      kind: 'write',
      doubtful: true,
      reason: 'the statement splitter and the reader disagree about the script',
    });
  }
  return {
    statements,
    isWrite: statements.some((s) => s.kind === 'write'),
    guardrails: orderGuardrails(statements.flatMap((s) => s.guardrails)),
    transactionControl: statements.some((s) => s.transactionControl),
  };
}
