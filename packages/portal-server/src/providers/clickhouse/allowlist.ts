// The ClickHouse allowlist (issue 27 "fail closed by allowlist"; docs/portal-classification.md): the
// functions and table functions known to read only (aggregate combinators such as -If, -State, -Merge keep
// their base function's effect), the words and type or table-engine names that stand before `(` without
// being a call, the calls that reach files, the network or other servers (remote, url, file, s3, mysql,
// postgresql, …: refused on read-only datasources, held elsewhere), and the engine's statement rules: ALTER
// commands that empty or drop data without a DELETE (CLEAR COLUMN, DETACH/DROP/REPLACE/MOVE PARTITION),
// DETACH, CREATE OR REPLACE, EXCHANGE, SYSTEM, whole-row serialisers (`tuple(*)`, `COLUMNS('re')`) and the
// system catalogs. Anything not listed is a doubtful write of the most dangerous class.
import type { AllowlistFinding, AllowlistToken, SqlAllowlist } from '../classifier-rules.js';

const words = (s: string) => s.trim().split(/\s+/);

/** Functions and table functions known to read only (lower-case; ClickHouse names are case-sensitive, compared folded). */
export const CLICKHOUSE_READ_FUNCTIONS: ReadonlySet<string> = new Set(
  words(`
  count sum avg min max any anylast anyheavy argmin argmax uniq uniqexact uniqcombined uniqcombined64 uniqhll12
  uniqtheta grouparray grouparrayinsertat groupuniqarray groupbitand groupbitor groupbitxor groupbitmap
  groupconcat grouparraysample grouparraymovingsum grouparraymovingavg quantile quantiles quantileexact
  quantilesexact quantiletiming quantiletdigest quantilestdigest quantiledeterministic median medianexact
  stddevpop stddevsamp varpop varsamp covarpop covarsamp corr topk topkweighted sumwithoverflow summap
  minmap maxmap skewpop skewsamp kurtpop kurtsamp entropy simplelinearregression histogram rank
  row_number dense_rank percent_rank cume_dist ntile lag lead lagInFrame leadInFrame first_value last_value
  nth_value any_value stddev variance stddev_pop stddev_samp var_pop var_samp sumcount avgweighted
  boundingratio deltasum deltasumtimestamp exponentialmovingaverage intervallengthsum sequencematch
  sequencecount windowfunnel retention
  plus minus multiply divide intdiv intdivorzero modulo moduloorzero negate abs gcd lcm sign exp log ln exp2
  log2 exp10 log10 sqrt cbrt pow power sin cos tan asin acos atan atan2 pi e floor ceil ceiling round
  roundbankers roundtoexp2 rounddown trunc truncate greatest least isnan isfinite isinfinite isnull
  isnotnull coalesce ifnull nullif assumenotnull tonullable if multiif
  equals notequals less greater lessorequals greaterorequals and or not xor in notin globalin globalnotin
  length empty notempty lengthutf8 lower upper lowerutf8 upperutf8 reverse reverseutf8 concat concatws
  substring substr substringutf8 mid appendtrailingcharifabsent trim trimleft trimright trimboth ltrim rtrim
  leftpad rightpad lpad rpad left right repeat replace replaceone replaceall replaceregexpone
  replaceregexpall position positionutf8 positioncaseinsensitive locate instr match like notlike ilike
  notilike extract extractall extractallgroups splitbychar splitbystring splitbyregexp splitbywhitespace
  arraystringconcat alphatokens format formatreadablesize formatreadablequantity formatreadabletimedelta
  startswith endswith base64encode base64decode hex unhex bin unbin tostring tostringcuttozero tofixedstring
  char ascii normalizeutf8nfc lengthutf8 countsubstrings countmatches domain domainwithoutwww topleveldomain
  protocol path pathfull querystring fragment cutquerystring cutfragment encodeurlcomponent
  decodeurlcomponent
  toint8 toint16 toint32 toint64 toint128 toint256 touint8 touint16 touint32 touint64 touint128 touint256
  tofloat32 tofloat64 todecimal32 todecimal64 todecimal128 todecimal256 todate todate32 todatetime
  todatetime64 touuid toipv4 toipv6 tobool toint8ornull toint32ornull toint64ornull touint64ornull
  tofloat64ornull todateornull todatetimeornull toint32orzero toint64orzero tofloat64orzero todecimalstring
  reinterpretasstring reinterpretasuint64 cast accuratecast accuratecastornull totypename todatetimeorzero
  tounixtimestamp toyear toquarter tomonth todayofyear todayofmonth todayofweek tohour tominute tosecond
  tostartofyear tostartofquarter tostartofmonth tostartofweek tostartofday tostartofhour tostartofminute
  tostartoffiveminutes tostartoffifteenminutes tostartofinterval tomonday toyyyymm toyyyymmdd
  toyyyymmddhhmmss toisoyear toisoweek toweek toyearweek torelativedaynum now now64 today yesterday
  timeslot datediff date_diff dateadd date_add datesub date_sub addseconds addminutes addhours adddays
  addweeks addmonths addyears subtractseconds subtractminutes subtracthours subtractdays subtractweeks
  subtractmonths subtractyears formatdatetime parsedatetime parsedatetimebesteffort
  parsedatetimebesteffortornull totimezone timezone timezoneof fromunixtimestamp datetrunc date_trunc
  tointervalsecond tointervalminute tointervalhour tointervalday tointervalweek tointervalmonth
  tointervalyear makedate makedatetime
  array arrayconcat arrayelement has hasall hasany indexof countequal arrayenumerate arrayenumerateuniq
  arraypopback arraypopfront arraypushback arraypushfront arrayslice arraysort arrayreversesort arrayuniq
  arrayjoin arraydistinct arrayintersect arrayreduce arrayreverse arrayflatten arraycompact arrayzip
  arraymap arrayfilter arrayexists arrayall arraycount arraysum arrayavg arraymin arraymax arrayfirst
  arraylast arrayfirstindex arraycumsum arraystringconcat arrayproduct arrayshuffle arrayresize range
  emptyarrayuint8 emptyarraystring emptyarrayint32 arraywithconstant arrayauc
  tuple tupleelement untuple map mapkeys mapvalues mapcontains mapadd mapsubtract
  cityhash64 siphash64 siphash128 md5 sha1 sha224 sha256 xxhash32 xxhash64 murmurhash2_32 murmurhash2_64
  murmurhash3_32 murmurhash3_64 farmhash64 javahash crc32 halfmd5 inthash32 inthash64
  rand rand32 rand64 randconstant generateuuidv4 generateuuidv7 randcanonical
  version uptime timezone currentdatabase hostname fqdn blocksize rownumberinblock materialize ignore
  tolowcardinality tocolumntypename dumpcolumnstructure defaultvalueofargumenttype bar
  visibleWidth visiblewidth bitand bitor bitxor bitnot bitshiftleft bitshiftright bitcount bittest
  jsonhas jsonlength jsontype jsonextract jsonextractstring jsonextractint jsonextractuint jsonextractfloat
  jsonextractbool jsonextractraw jsonextractkeys jsonextractarrayraw jsonextractkeysandvalues
  simplejsonextractstring simplejsonextractint simplejsonhas visitparamextractstring tojsonstring
  isvalidjson json_value json_query json_exists
  ipv4numtostring ipv4stringtonum ipv6numtostring ipv6stringtonum tostartofsecond
  numbers numbers_mt zeros zeros_mt generaterandom values null view
  `),
);

/** Words before `(` that are syntax, data types or table engines, not calls. */
const SYNTAX: ReadonlySet<string> = new Set(
  words(`
  IN EXISTS VALUES AS OVER USING FROM JOIN ON AND OR NOT WHERE PREWHERE SELECT ALL ANY THEN ELSE WHEN CASE BY
  IS LIKE ILIKE BETWEEN DISTINCT UNION INTERSECT EXCEPT HAVING PARTITION WINDOW ROWS RANGE SET LIMIT OFFSET
  INTERVAL ORDER GROUP WITH TO FOR APPLY REPLACE SETTINGS FILTER GLOBAL ARRAY TUPLE
  NULLABLE LOWCARDINALITY MAP NESTED DECIMAL DECIMAL32 DECIMAL64 DECIMAL128 DECIMAL256 DATETIME DATETIME64
  FIXEDSTRING ENUM ENUM8 ENUM16 AGGREGATEFUNCTION SIMPLEAGGREGATEFUNCTION OBJECT VARIANT DYNAMIC JSON
  MERGETREE REPLACINGMERGETREE SUMMINGMERGETREE AGGREGATINGMERGETREE COLLAPSINGMERGETREE
  VERSIONEDCOLLAPSINGMERGETREE GRAPHITEMERGETREE MEMORY LOG TINYLOG STRIPELOG SET JOIN BUFFER
  CODEC TTL GRANULARITY MINMAX BLOOM_FILTER NGRAMBF_V1 TOKENBF_V1 PRIMARY KEY
  `),
);

const EXTERNAL = (what: string): Omit<AllowlistFinding, 'subject'> => ({
  effect: 'unverifiable',
  reason: `reaches ${what} (a file or network address)`,
});

/** Calls (table functions and functions) that reach outside the queried tables. */
const KNOWN_CALLS: ReadonlyMap<string, Omit<AllowlistFinding, 'subject'>> = new Map([
  ...words('remote remotesecure cluster clusterallreplicas').map(
    (n) => [n, EXTERNAL('another server')] as const,
  ),
  ...words('url urlcluster s3 s3cluster gcs azureblobstorage azureblobstoragecluster hdfs hdfscluster').map(
    (n) => [n, EXTERNAL('a URL')] as const,
  ),
  ...words('file filecluster input executable').map(
    (n) => [n, EXTERNAL('a server file or program')] as const,
  ),
  ...words('mysql postgresql mongodb redis sqlite odbc jdbc iceberg deltalake hudi').map(
    (n) => [n, EXTERNAL('an external database')] as const,
  ),
  ['merge', { effect: 'reach', reason: 'reads every table whose name matches a pattern' }],
  ['dictionary', { effect: 'reach', reason: 'reads a dictionary by a name in a string' }],
  ['dictget', { effect: 'reach', reason: 'reads a dictionary by a name in a string' }],
  ['dictgetornull', { effect: 'reach', reason: 'reads a dictionary by a name in a string' }],
  ['dictgetordefault', { effect: 'reach', reason: 'reads a dictionary by a name in a string' }],
  ['dicthas', { effect: 'reach', reason: 'reads a dictionary by a name in a string' }],
  ['joinget', { effect: 'reach', reason: 'reads a Join table by a name in a string' }],
  ['columns', { effect: 'opaque', reason: 'selects columns by a pattern (whole-row)' }],
  ['formatrow', { effect: 'opaque', reason: 'serialises whole rows' }],
  ['formatrownonewline', { effect: 'opaque', reason: 'serialises whole rows' }],
  ['getsetting', { effect: 'unverifiable', reason: 'reads server settings' }],
  ['currentuser', { effect: 'unverifiable', reason: 'names the datasource account' }],
]);

/** Combinators that keep an aggregate's effect (`sumIf`, `uniqState`, `anyOrNull`). */
const COMBINATORS = words(
  'If Array Distinct State Merge MergeState OrNull OrDefault Resample ForEach SimpleState Map ArgMin ArgMax',
).map((c) => c.toLowerCase());

const isOp = (t: AllowlistToken | undefined, v: string) => t?.kind === 'op' && t.value === v;
const isWord = (t: AllowlistToken | undefined, v: string) => t?.kind === 'word' && t.value === v;

/** ALTER commands that remove or empty data without the DELETE/UPDATE words the guardrails read. */
const ALTER_GUARDS: Array<{ words: string[]; guardrails: string[]; reason: string }> = [
  {
    words: ['CLEAR', 'COLUMN'],
    guardrails: ['update_without_where'],
    reason: 'empties a column in every row',
  },
  { words: ['CLEAR', 'INDEX'], guardrails: ['update_without_where'], reason: 'empties an index' },
  { words: ['CLEAR', 'PROJECTION'], guardrails: ['update_without_where'], reason: 'empties a projection' },
  {
    words: ['DETACH', 'PARTITION'],
    guardrails: ['drop', 'delete_without_where'],
    reason: 'removes a partition',
  },
  { words: ['DETACH', 'PART'], guardrails: ['drop', 'delete_without_where'], reason: 'removes a part' },
  {
    words: ['DROP', 'PARTITION'],
    guardrails: ['drop', 'delete_without_where'],
    reason: 'removes a partition',
  },
  { words: ['DROP', 'PART'], guardrails: ['drop', 'delete_without_where'], reason: 'removes a part' },
  { words: ['DROP', 'DETACHED'], guardrails: ['drop'], reason: 'removes detached data' },
  {
    words: ['REPLACE', 'PARTITION'],
    guardrails: ['drop', 'delete_without_where'],
    reason: 'replaces a partition',
  },
  {
    words: ['MOVE', 'PARTITION'],
    guardrails: ['drop', 'delete_without_where'],
    reason: 'moves a partition away',
  },
  { words: ['MOVE', 'PART'], guardrails: ['drop', 'delete_without_where'], reason: 'moves a part away' },
  {
    words: ['MODIFY', 'TTL'],
    guardrails: ['delete_without_where'],
    reason: 'an expiry can delete every row',
  },
  { words: ['MATERIALIZE', 'TTL'], guardrails: ['delete_without_where'], reason: 'applies an expiry' },
  { words: ['MODIFY', 'COLUMN'], guardrails: ['update_without_where'], reason: 'rewrites a column' },
  { words: ['DROP', 'COLUMN'], guardrails: ['drop'], reason: 'drops a column' },
];

/** Heads that are never reads, whose effect the classifier cannot bound. */
const UNVERIFIABLE_HEADS: Record<string, string> = {
  SYSTEM: 'a server command',
  ATTACH: 'attaches data or tables',
  DETACH: 'detaches a table, dictionary or database (its data leaves the server view)',
  EXCHANGE: 'swaps two tables',
  KILL: 'stops queries or mutations',
  UNDROP: 'restores a dropped table',
  BACKUP: 'writes a backup to a file or URL',
  RESTORE: 'restores a backup over tables',
  MOVE: 'moves access entities',
};

/** Catalog schemas that name every object; tables that hold column values or statement texts. */
const CATALOG_SCHEMAS = new Set(['system', 'information_schema']);
const VALUE_TABLES = new Set(
  words(
    'query_log query_thread_log query_views_log processes parts parts_columns part_log mutations text_log columns ' +
      'data_skipping_indices dictionaries asynchronous_insert_log session_log query_cache',
  ),
);

function statementRules(tokens: readonly AllowlistToken[]): AllowlistFinding[] {
  const out: AllowlistFinding[] = [];
  const w = tokens.filter((t) => t.kind === 'word').map((t) => t.value);
  const head = w[0] ?? '';
  if (UNVERIFIABLE_HEADS[head])
    out.push({ effect: 'unverifiable', subject: head, reason: UNVERIFIABLE_HEADS[head] });
  if ((head === 'CREATE' && w[1] === 'OR' && w[2] === 'REPLACE') || (head === 'REPLACE' && w[1] !== 'INTO'))
    out.push({
      effect: 'guarded',
      subject: 'CREATE OR REPLACE',
      reason: 'replaces an existing object and its data',
      guardrails: ['drop'],
    });
  if (
    (head === 'CREATE' || head === 'ALTER') &&
    ['FUNCTION', 'USER', 'ROLE', 'QUOTA', 'ROW', 'SETTINGS', 'POLICY', 'PROFILE'].includes(w[1] ?? '')
  )
    out.push({
      effect: 'unverifiable',
      subject: `${head} ${w[1] ?? ''}`.trim(),
      reason: 'code or access that applies later',
    });
  if (head === 'ALTER') {
    for (const g of ALTER_GUARDS) {
      const at = w.findIndex((x, i) => x === g.words[0] && w[i + 1] === g.words[1]);
      if (at > 0)
        out.push({
          effect: 'guarded',
          subject: g.words.join(' '),
          reason: g.reason,
          guardrails: g.guardrails,
        });
    }
  }
  if (head === 'INSERT' && isWord(tokens[1], 'INTO') && isWord(tokens[2], 'FUNCTION'))
    out.push({
      effect: 'unverifiable',
      subject: 'INSERT INTO FUNCTION',
      reason: 'writes to a file or network address',
    });
  if (
    head === 'SHOW' &&
    !w.includes('FROM') &&
    !w.includes('IN') &&
    w.some((x) => ['TABLES', 'DICTIONARIES', 'COLUMNS'].includes(x))
  )
    out.push({ effect: 'reach', subject: 'SHOW', reason: 'lists objects of the current database' });
  let depth = 0;
  const calls: string[] = [];
  tokens.forEach((t, k) => {
    if (isOp(t, '(')) {
      const prev = tokens[k - 1];
      calls.push(prev?.kind === 'word' ? prev.value : '');
      depth++;
    } else if (isOp(t, ')')) {
      calls.pop();
      depth--;
    }
    // `*` as a call argument (tuple(*), toString(*), formatRow('JSON', *)) or with APPLY/EXCEPT: whole rows.
    if (isOp(t, '*')) {
      const argument = isOp(tokens[k - 1], '(') || isOp(tokens[k - 1], ',') || isOp(tokens[k - 1], '.');
      const ends = isOp(tokens[k + 1], ')') || isOp(tokens[k + 1], ',') || tokens[k + 1] === undefined;
      const call = calls[calls.length - 1] ?? '';
      if (depth > 0 && argument && ends && call !== 'COUNT' && call !== '')
        out.push({ effect: 'opaque', subject: `${call.toLowerCase()}(*)`, reason: 'serialises whole rows' });
      if (isWord(tokens[k + 1], 'APPLY'))
        out.push({ effect: 'opaque', subject: '* APPLY', reason: 'applies a function to every column' });
    }
    if ((t.kind === 'word' || t.kind === 'qident') && isOp(tokens[k + 1], '.') && !isOp(tokens[k - 1], '.')) {
      const schema = t.value.toLowerCase();
      if (!CATALOG_SCHEMAS.has(schema)) return;
      const table = (tokens[k + 2]?.value ?? '').toLowerCase();
      out.push({
        effect: 'reach',
        subject: `${schema}.${table}`,
        reason: 'a catalog names objects of every database',
      });
      if (VALUE_TABLES.has(table))
        out.push({
          effect: 'opaque',
          subject: `${schema}.${table}`,
          reason: 'catalog rows hold values and statement texts',
        });
    }
  });
  return out;
}

export const clickhouseAllowlist: SqlAllowlist = {
  readFunctions: CLICKHOUSE_READ_FUNCTIONS,
  syntax: SYNTAX,
  knownCalls: KNOWN_CALLS,
  combinators: COMBINATORS,
  statementRules,
};
