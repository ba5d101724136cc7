// The MySQL/MariaDB allowlist (issue 27 "fail closed by allowlist"; docs/portal-classification.md): the
// built-in functions known to read only, the words that stand before `(` without being a call, the calls
// with a known other effect, and the statement rules of the family: dynamic SQL (PREPARE, EXECUTE
// [IMMEDIATE], compound blocks, DO, CALL), files (LOAD_FILE, INTO OUTFILE/DUMPFILE, LOAD DATA), user
// variables (state that could carry a masked value from one statement to the next), statistics and
// statement-history catalogs (they hold column values), catalogs that name every object, and upserts
// that can rewrite every row. Anything not listed is a doubtful write of the most dangerous class.
import { applyReadingEdits, isOp, isWord, type ReadingEdit } from '../classifier-reading.js';
import type { AllowlistFinding, AllowlistToken, SqlAllowlist } from '../classifier-rules.js';

const words = (s: string) => s.trim().split(/\s+/);

/** Built-in functions that only compute or read (lower-case). */
export const MYSQL_READ_FUNCTIONS: ReadonlySet<string> = new Set(
  words(`
  abs acos asin atan atan2 ceil ceiling conv cos cot crc32 degrees exp floor ln log log10 log2 mod pi pow power
  radians rand round sign sin sqrt tan truncate div greatest least coalesce ifnull nullif if isnull interval
  ascii bin bit_length char char_length character_length concat concat_ws elt export_set field find_in_set
  format from_base64 to_base64 hex unhex insert instr lcase lower left length locate lpad ltrim make_set mid
  oct octet_length ord position quote repeat replace reverse right rpad rtrim soundex space strcmp substr
  substring substring_index trim ucase upper weight_string regexp_replace regexp_instr regexp_substr regexp_like
  sformat natural_sort_key
  adddate addtime convert_tz curdate current_date current_time current_timestamp curtime date date_add date_format
  date_sub datediff day dayname dayofmonth dayofweek dayofyear extract from_days from_unixtime get_format hour
  last_day localtime localtimestamp makedate maketime microsecond minute month monthname now period_add
  period_diff quarter sec_to_time second str_to_date subdate subtime sysdate time time_format time_to_sec
  timediff timestamp timestampadd timestampdiff to_days to_seconds unix_timestamp utc_date utc_time
  utc_timestamp week weekday weekofyear year yearweek
  cast convert binary charset collation coercibility
  count sum avg min max group_concat std stddev stddev_pop stddev_samp variance var_pop var_samp bit_and
  bit_or bit_xor json_arrayagg json_objectagg
  row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value median
  percentile_cont percentile_disc
  json_array json_object json_quote json_contains json_contains_path json_extract json_unquote json_keys
  json_search json_value json_query json_type json_valid json_length json_depth json_pretty json_compact
  json_detailed json_loose json_exists json_overlaps json_equals json_normalize json_array_append
  json_array_insert json_insert json_merge json_merge_patch json_merge_preserve json_remove json_replace
  json_set json_table json_array_intersect json_object_filter_keys json_object_to_array json_key_value
  md5 sha sha1 sha2 aes_encrypt aes_decrypt compress uncompress uncompressed_length random_bytes
  uuid uuid_short sys_guid inet_aton inet_ntoa inet6_aton inet6_ntoa is_ipv4 is_ipv6 is_ipv4_compat
  is_ipv4_mapped
  database schema user current_user session_user system_user version connection_id found_rows row_count
  current_role
  bit_count
  column_create column_get column_list column_exists column_check column_json column_add column_delete
  st_astext st_aswkt st_geomfromtext st_x st_y point linestring polygon st_distance st_contains st_within
  st_intersects
  sleep
  `),
);

/**
 * Words before `(` that are syntax or type names, not calls. `KEY` is reserved (a routine of that name must be
 * quoted, and a quoted name is judged as a routine): `PRIMARY KEY (…)`, `FOREIGN KEY (…)`, `UNIQUE KEY (…)`.
 */
const SYNTAX: ReadonlySet<string> = new Set(
  words(`
  IN EXISTS VALUES VALUE AS OVER USING FROM JOIN ON AND OR NOT XOR WHERE SELECT ALL ANY SOME THEN ELSE WHEN
  CASE BY IS LIKE BETWEEN DISTINCT DISTINCTROW UNION INTERSECT EXCEPT HAVING RETURNING PRIMARY UNIQUE FOREIGN
  CHECK DEFAULT PARTITION WINDOW ROW ROWS LATERAL SET LIMIT OFFSET INTERVAL COLLATE ESCAPE REGEXP RLIKE MATCH
  AGAINST ORDER GROUP WITH RECURSIVE TO DIV MOD STRAIGHT_JOIN FULLTEXT SPATIAL STORED VIRTUAL GENERATED
  ALWAYS FOR OF AUTO_INCREMENT COMMENT KEY
  INT INTEGER TINYINT SMALLINT MEDIUMINT BIGINT DECIMAL DEC NUMERIC FLOAT DOUBLE REAL BIT CHAR VARCHAR NCHAR
  NVARCHAR BINARY VARBINARY TEXT BLOB ENUM SIGNED UNSIGNED DATETIME TIME TIMESTAMP YEAR
  `),
);

const unverifiable = (reason: string): Omit<AllowlistFinding, 'subject'> => ({
  effect: 'unverifiable',
  reason,
});

const FILE_READ = unverifiable('reads a file of the database server');
const STATE = { effect: 'write', reason: 'changes server or session state' } as const;

/** Calls whose effect is known and is not a plain read. */
const KNOWN_CALLS: ReadonlyMap<string, Omit<AllowlistFinding, 'subject'>> = new Map([
  ['load_file', FILE_READ],
  ['sys_exec', unverifiable('runs a program on the database server')],
  ['sys_eval', unverifiable('runs a program on the database server')],
  ['benchmark', unverifiable('repeats an expression a caller-chosen number of times')],
  ['get_lock', STATE],
  ['release_lock', STATE],
  ['release_all_locks', STATE],
  ['is_free_lock', STATE],
  ['is_used_lock', STATE],
  ['nextval', STATE],
  ['setval', STATE],
  ['lastval', STATE],
  ['last_insert_id', STATE],
  ['master_pos_wait', STATE],
  ['master_gtid_wait', STATE],
  ['name_const', unverifiable('names a constant the classifier cannot follow')],
]);

/** Statement heads whose body runs SQL the classifier never saw, or code that runs later. */
const DYNAMIC_HEADS: Record<string, string> = {
  PREPARE: 'prepares SQL text (dynamic SQL)',
  EXECUTE: 'runs a prepared or dynamic statement',
  DEALLOCATE: 'changes prepared statements of the session',
  CALL: 'runs a procedure whose body the classifier cannot read',
  DO: 'evaluates expressions for their side effects',
  HANDLER: 'reads a table by a handler the session keeps',
  INSTALL: 'installs server plugins',
  UNINSTALL: 'removes server plugins',
  LOAD: 'loads a file into a table',
  SIGNAL: 'raises a condition in a compound statement',
  BINLOG: 'replays binary log events',
};

/** Catalog tables that hold column values (statistics, histograms, statement texts). */
const VALUE_CATALOGS = new Set([
  'mysql.column_stats',
  'mysql.table_stats',
  'mysql.index_stats',
  'mysql.innodb_table_stats',
  'mysql.innodb_index_stats',
  'mysql.general_log',
  'mysql.slow_log',
  'information_schema.column_statistics',
  'information_schema.processlist',
  'information_schema.optimizer_trace',
]);
const VALUE_SCHEMAS = new Set(['performance_schema', 'sys']);
/** Catalog schemas that name objects of every schema. */
const CATALOG_SCHEMAS = new Set(['information_schema', 'mysql', 'performance_schema', 'sys']);
/** SHOW forms that list objects; without FROM/IN they list the current database. */
const SHOW_LISTS = new Set([
  'TABLES',
  'FULL',
  'TABLE',
  'COLUMNS',
  'FIELDS',
  'INDEX',
  'INDEXES',
  'KEYS',
  'TRIGGERS',
  'EVENTS',
  'OPEN',
  'PROCEDURE',
  'FUNCTION',
  'PACKAGE',
]);

/** The family's own statement rules. */
function statementRules(tokens: readonly AllowlistToken[], _text: string): AllowlistFinding[] {
  const out: AllowlistFinding[] = [];
  const head = tokens.find((t) => t.kind === 'word')?.value ?? '';
  const second = tokens.filter((t) => t.kind === 'word')[1]?.value ?? '';
  if (DYNAMIC_HEADS[head]) out.push({ effect: 'unverifiable', subject: head, reason: DYNAMIC_HEADS[head] });
  // MariaDB's compound statement BEGIN NOT ATOMIC … END, and routines, triggers and events whose bodies run later.
  if (head === 'BEGIN' && second === 'NOT')
    out.push({ effect: 'unverifiable', subject: 'BEGIN NOT ATOMIC', reason: 'a compound statement' });
  if (head === 'CREATE' || head === 'ALTER') {
    const kind = tokens.find(
      (t) => t.kind === 'word' && ['PROCEDURE', 'FUNCTION', 'TRIGGER', 'EVENT', 'SERVER'].includes(t.value),
    );
    if (kind)
      out.push({ effect: 'unverifiable', subject: `${head} ${kind.value}`, reason: 'code that runs later' });
  }
  // MariaDB's CREATE OR REPLACE drops the existing table (and its rows) first.
  if (head === 'CREATE' && second === 'OR')
    out.push({
      effect: 'guarded',
      subject: 'CREATE OR REPLACE',
      reason: 'replaces an existing object and its data',
      guardrails: ['drop'],
    });
  if (head === 'SHOW') {
    const lists = tokens.some((t) => t.kind === 'word' && SHOW_LISTS.has(t.value));
    const from = tokens.some((t) => isWord(t, 'FROM') || isWord(t, 'IN'));
    if (lists && !from)
      out.push({ effect: 'reach', subject: 'SHOW', reason: 'lists objects of the current database' });
    if (tokens.some((t) => isWord(t, 'PROCESSLIST'))) {
      out.push({ effect: 'opaque', subject: 'SHOW PROCESSLIST', reason: 'statement texts hold values' });
      out.push({ effect: 'reach', subject: 'SHOW PROCESSLIST', reason: 'names every session and database' });
    }
  }
  tokens.forEach((t, k) => {
    if (
      t.kind === 'word' &&
      (t.value === 'OUTFILE' || t.value === 'DUMPFILE') &&
      isWord(tokens[k - 1], 'INTO')
    )
      out.push({
        effect: 'unverifiable',
        subject: `INTO ${t.value}`,
        reason: 'writes a file on the database server',
      });
    if (isWord(t, 'IMMEDIATE') && isWord(tokens[k - 1], 'EXECUTE'))
      out.push({ effect: 'unverifiable', subject: 'EXECUTE IMMEDIATE', reason: 'runs SQL text' });
    // User variables: state that outlives the statement (and could carry a masked value to the next one).
    // (`'u'@'host'` right after a name is an account, not a variable.)
    const account =
      tokens[k - 1] !== undefined && tokens[k - 1].end === t.start && tokens[k - 1].kind !== 'op';
    if (t.kind === 'param' && t.value.startsWith('@') && !t.value.startsWith('@@') && !account)
      out.push({
        effect: 'unverifiable',
        subject: t.value,
        reason: 'a user variable keeps state between statements (it could carry a masked value)',
      });
    if (isOp(t, ':') && isOp(tokens[k + 1], '='))
      out.push({ effect: 'unverifiable', subject: ':=', reason: 'assigns a variable' });
    // ON DUPLICATE KEY UPDATE fed by a query, and REPLACE … SELECT, can rewrite every row of the target.
    if (isWord(t, 'DUPLICATE') && isWord(tokens[k + 1], 'KEY') && tokens.some((x) => isWord(x, 'SELECT')))
      out.push({
        effect: 'guarded',
        subject: 'ON DUPLICATE KEY UPDATE',
        reason: 'an upsert fed by a query can update every row',
        guardrails: ['update_always_true'],
      });
    // Catalogs: `schema.table` references.
    if (t.kind !== 'word' && t.kind !== 'qident') return;
    if (!isOp(tokens[k + 1], '.') || isOp(tokens[k - 1], '.')) return;
    const schema = t.value.toLowerCase();
    const table = (tokens[k + 2]?.value ?? '').toLowerCase();
    const name = `${schema}.${table}`;
    if (VALUE_CATALOGS.has(name) || VALUE_SCHEMAS.has(schema))
      out.push({
        effect: 'opaque',
        subject: name,
        reason: 'statistics and statement texts hold column values',
      });
    if (CATALOG_SCHEMAS.has(schema))
      out.push({ effect: 'reach', subject: name, reason: 'a catalog names objects of every schema' });
  });
  if (head === 'REPLACE' && tokens.some((x) => isWord(x, 'SELECT') || isWord(x, 'TABLE')))
    out.push({
      effect: 'guarded',
      subject: 'REPLACE … SELECT',
      reason: 'replacing from a query can delete and rewrite every row',
      guardrails: ['delete', 'update_always_true'],
    });
  if (MAINTENANCE_HEADS.has(head) && (head !== 'ANALYZE' || second === 'TABLE'))
    out.push({ effect: 'write', subject: head, reason: 'changes table statistics or maintenance state' });
  return out;
}

/** Maintenance statements that change statistics or state even though they answer rows. */
const MAINTENANCE_HEADS = new Set(['ANALYZE', 'OPTIMIZE', 'REPAIR', 'FLUSH', 'RESET', 'PURGE', 'KILL']);

export const mysqlAllowlist: SqlAllowlist = {
  readFunctions: MYSQL_READ_FUNCTIONS,
  syntax: SYNTAX,
  knownCalls: KNOWN_CALLS,
  statementRules,
};

/**
 * Read forms the MariaDB grammar does not know, as the SQL they mean: `NATURAL [LEFT|RIGHT [OUTER]] JOIN` reads
 * the same tables as a CROSS JOIN, and `CHECKSUM TABLE a, b [QUICK|EXTENDED]` reads its tables. Anything else
 * is left as written. Matched on code tokens (classifier-reading.ts): `# NATURAL⏎JOIN secret` is a comment and
 * a plain JOIN, not a NATURAL JOIN.
 */
export function mysqlReading(text: string, tokens: readonly AllowlistToken[]): string {
  const checksum =
    /^\s*CHECKSUM\s+TABLES?\s+([\w`.$]+(?:\s*,\s*[\w`.$]+)*)\s*(?:QUICK|EXTENDED)?\s*;?\s*$/i.exec(text);
  if (checksum && isWord(tokens[0], 'CHECKSUM')) return `SELECT 1 FROM ${checksum[1]}`;
  const edits: ReadingEdit[] = [];
  tokens.forEach((t, k) => {
    if (!isWord(t, 'NATURAL')) return;
    let j = k + 1;
    if (isWord(tokens[j], 'LEFT', 'RIGHT') && ++j && isWord(tokens[j], 'OUTER')) j++;
    if (isWord(tokens[j], 'JOIN')) edits.push({ from: t.start, to: tokens[j].end, with: 'CROSS JOIN' });
  });
  return applyReadingEdits(text, edits);
}
