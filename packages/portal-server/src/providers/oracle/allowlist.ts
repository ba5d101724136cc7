// The Oracle allowlist ("fail closed, a denylist never wins"; docs/portal-classification.md): the SQL built-in
// functions known to only compute or read what their arguments and FROM clause name, and the words that stand
// before `(` without being a call. Anything else is a doubtful write of the most dangerous class
// (`unverifiable`): a user function, unqualified (`evil()`: it resolves in the user's schema first) or qualified
// (`app.purge_all(1)`: one with PRAGMA AUTONOMOUS_TRANSACTION can delete inside a SELECT), a quoted name
// (`"NVL"(…)` is judged as a routine), and built-ins not listed. Left out on purpose: DBMS_ and UTL_ packages
// (system-routines.ts holds them too), XQuery (XMLQUERY, XMLTABLE: fn:doc reads the XML DB repository),
// SYS_CONTEXT and USERENV (session state; harmless, but not needed to read data); `seq.NEXTVAL` advances a
// sequence and is a write.
import { isOp, isWord } from '../classifier-reading.js';
import type { AllowlistFinding, AllowlistToken, SqlAllowlist } from '../classifier-rules.js';

const words = (s: string) => s.trim().split(/\s+/);

/** Built-in functions that only compute or read (lower-case). */
export const ORACLE_READ_FUNCTIONS: ReadonlySet<string> = new Set(
  words(`
  abs acos asin atan atan2 bitand ceil cos cosh exp floor ln log mod nanvl power remainder round sign sin sinh
  sqrt tan tanh trunc width_bucket greatest least
  chr concat initcap lower lpad ltrim nls_initcap nls_lower nls_upper nlssort replace rpad rtrim soundex substr
  substrb substrc substr2 substr4 translate trim upper ascii asciistr instr instrb instrc length lengthb lengthc
  regexp_replace regexp_substr regexp_instr regexp_count regexp_like unistr compose decompose
  add_months current_date current_timestamp extract from_tz last_day localtimestamp months_between new_time
  next_day numtodsinterval numtoyminterval sys_extract_utc sysdate systimestamp to_char to_date to_timestamp
  to_timestamp_tz to_dsinterval to_yminterval tz_offset
  cast to_number to_binary_double to_binary_float to_clob to_nchar to_nclob rawtohex hextoraw chartorowid
  rowidtochar to_multi_byte to_single_byte validate_conversion
  nvl nvl2 decode coalesce nullif lnnvl
  avg count max min sum listagg median stddev stddev_pop stddev_samp variance var_pop var_samp corr covar_pop
  covar_samp regr_slope regr_intercept regr_count regr_r2 regr_avgx regr_avgy regr_sxx regr_syy regr_sxy
  approx_count_distinct approx_median approx_percentile percentile_cont percentile_disc grouping grouping_id
  group_id any_value collect
  row_number rank dense_rank ntile lag lead first_value last_value nth_value cume_dist percent_rank
  ratio_to_report
  json_value json_query json_table json_exists json_object json_array json_objectagg json_arrayagg
  json_serialize json_mergepatch
  xmlelement xmlforest xmlagg xmlattributes xmlconcat xmlserialize
  sys_guid ora_hash standard_hash dump vsize empty_blob empty_clob
  `),
);

/**
 * Words before `(` that are syntax or reserved type names, not calls (Oracle reserves these words, so no
 * routine carries them unquoted).
 */
const SYNTAX: ReadonlySet<string> = new Set(
  words(`
  IN EXISTS VALUES AS OVER USING FROM JOIN ON AND OR NOT WHERE SELECT ALL ANY SOME THEN ELSE WHEN CASE BY IS
  LIKE BETWEEN DISTINCT UNION INTERSECT MINUS EXCEPT HAVING RETURNING PRIMARY UNIQUE FOREIGN CHECK DEFAULT
  PARTITION SUBPARTITION ROW ROWS ORDER GROUP WITH TO KEY PIVOT UNPIVOT WITHIN KEEP TABLE COLUMNS SAMPLE MODIFY
  ADD INSERT ROLLUP CUBE SETS PRIOR FOR INTERVAL MATCH_RECOGNIZE PATTERN DEFINE MEASURES ESCAPE BLOCK SEED
  NUMBER VARCHAR2 VARCHAR CHAR DATE DECIMAL FLOAT INTEGER INT SMALLINT RAW LONG
  `),
);

/** Type names Oracle does not reserve: a type only where a type stands (token-allowlist.ts `typePlace`). */
const TYPE_WORDS: ReadonlySet<string> = new Set(words('NVARCHAR2 NCHAR TIMESTAMP UROWID NUMERIC DEC'));

/**
 * The SYNTAX words Oracle reserves (V$RESERVED_WORDS): no routine can carry their name unquoted, so before `(`
 * they are always syntax, as are CASE and WHEN, which the expression grammar always takes as its own.
 */
const RESERVED: ReadonlySet<string> = new Set(
  words(`
  IN EXISTS VALUES AS FROM ON AND OR NOT WHERE SELECT ALL ANY THEN ELSE BY IS LIKE BETWEEN DISTINCT UNION
  INTERSECT MINUS HAVING UNIQUE CHECK DEFAULT ROW ROWS ORDER GROUP WITH TO TABLE MODIFY ADD INSERT PRIOR FOR
  NUMBER VARCHAR2 VARCHAR CHAR DATE DECIMAL FLOAT INTEGER SMALLINT RAW LONG CASE WHEN SOME
  `),
);

/** Tokens after which an expression starts: an unreserved word followed by `(` there is a call. */
const EXPRESSION_AFTER: ReadonlySet<string> = new Set(
  words(`
  SELECT WHERE AND OR NOT THEN ELSE WHEN HAVING BY ON SET VALUES RETURN IN IS LIKE BETWEEN DISTINCT ALL ANY
  SOME EXISTS PRIOR CASE START CONNECT
  `),
);

/** Where an unreserved SYNTAX word (`SAMPLE`, `PIVOT`, `ROLLUP`, `OVER`, …) before `(` is syntax, not a call. */
function syntaxPlace(tokens: readonly AllowlistToken[], k: number): boolean {
  const word = tokens[k].value;
  if (RESERVED.has(word)) return true;
  // GROUP BY ROLLUP (a), CUBE (a), GROUPING SETS ((a), ROLLUP (b)).
  if (word === 'SETS') return isWord(tokens[k - 1], 'GROUPING');
  if (word === 'ROLLUP' || word === 'CUBE') return inGroupBy(tokens, k);
  const before = tokens[k - 1];
  if (!before) return false;
  if (before.kind === 'op') return before.value === ')';
  return !(before.kind === 'word' && EXPRESSION_AFTER.has(before.value));
}

/** True when token `k` stands in a GROUP BY list (through GROUPING SETS' parentheses). */
function inGroupBy(tokens: readonly AllowlistToken[], k: number): boolean {
  let depth = 0;
  for (let j = k - 1; j >= 0; j--) {
    const t = tokens[j];
    if (isOp(t, ')')) depth++;
    else if (isOp(t, '(')) depth--;
    else if (depth <= 0 && isWord(t, 'BY')) return isWord(tokens[j - 1], 'GROUP');
    else if (depth <= 0 && t.kind === 'word' && CLAUSE_WORDS.has(t.value)) return false;
  }
  return false;
}

const CLAUSE_WORDS: ReadonlySet<string> = new Set(words('SELECT FROM WHERE HAVING ORDER ON SET VALUES'));

/** `seq.NEXTVAL` advances a sequence: state that outlives the statement. */
function statementRules(tokens: readonly AllowlistToken[]): AllowlistFinding[] {
  const out: AllowlistFinding[] = [];
  tokens.forEach((t, k) => {
    if (t.kind === 'word' && t.value === 'NEXTVAL' && isOp(tokens[k - 1], '.'))
      out.push({ effect: 'write', subject: 'NEXTVAL', reason: 'advances a sequence' });
  });
  return out;
}

export const oracleAllowlist: SqlAllowlist = {
  readFunctions: ORACLE_READ_FUNCTIONS,
  syntax: SYNTAX,
  typeWords: TYPE_WORDS,
  syntaxPlace,
  statementRules,
};
