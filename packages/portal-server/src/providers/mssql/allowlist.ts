// The SQL Server allowlist ("fail closed, a denylist never wins"; docs/portal-classification.md): the T-SQL
// built-in functions known to only compute or read what their arguments and FROM clause name, and the words
// that stand before `(` without being a call. A user function (`dbo.f(1)`: T-SQL calls scalar user functions
// by a qualified name), a bracketed or quoted name (`[evil](1)`), and any built-in not listed is a doubtful
// write of the most dangerous class (`unverifiable`). Left out on purpose: what reaches files or other servers
// or runs SQL text (OPENROWSET, OPENQUERY, OPENDATASOURCE, OPENXML, sp_/xp_ routines: system-routines.ts holds
// them too), what reveals or changes session and server state (SESSION_CONTEXT, CONTEXT_INFO, IDENTITY, the
// login functions); `NEXT VALUE FOR` advances a sequence and is a write. The catalog lookups (OBJECT_ID,
// DB_NAME, COLUMNPROPERTY, …) read what the sys views a reader may query already show, and scripts test for an
// object with them (`IF OBJECT_ID('t') IS NOT NULL`), so they are listed.
import { isWord } from '../classifier-reading.js';
import type { AllowlistFinding, AllowlistToken, SqlAllowlist } from '../classifier-rules.js';
import { mssqlColumnTypes } from './column-types.js';

const words = (s: string) => s.trim().split(/\s+/);

/** Built-in functions that only compute or read (lower-case). */
export const MSSQL_READ_FUNCTIONS: ReadonlySet<string> = new Set(
  words(`
  ascii char charindex concat concat_ws difference format left len lower ltrim nchar patindex quotename replace
  replicate reverse right rtrim soundex space str string_agg string_escape string_split stuff substring
  translate trim unicode upper datalength
  abs acos asin atan atn2 ceiling cos cot degrees exp floor log log10 pi power radians rand round sign sin sqrt
  square tan greatest least
  dateadd datediff datediff_big datefromparts datetime2fromparts datetimefromparts datetimeoffsetfromparts
  datename datepart datetrunc date_bucket day eomonth getdate getutcdate isdate month smalldatetimefromparts
  switchoffset sysdatetime sysdatetimeoffset sysutcdatetime timefromparts todatetimeoffset year
  cast convert parse try_cast try_convert try_parse
  choose iif coalesce nullif isnull isnumeric
  avg checksum_agg count count_big grouping grouping_id max min stdev stdevp sum var varp
  approx_count_distinct approx_percentile_cont approx_percentile_disc
  row_number rank dense_rank ntile lag lead first_value last_value cume_dist percent_rank percentile_cont
  percentile_disc
  isjson json_value json_query json_modify json_object json_array json_path_exists openjson
  newid checksum binary_checksum hashbytes compress decompress crypt_gen_random
  contains freetext containstable freetexttable generate_series
  object_id object_name object_schema_name object_definition schema_id schema_name db_id db_name type_id
  type_name col_name col_length columnproperty objectproperty objectpropertyex indexproperty serverproperty
  databasepropertyex
  `),
);

/**
 * Words before `(` that are syntax or type names, not calls. T-SQL calls a scalar user function only by a
 * qualified name, so an unqualified type word cannot be one.
 */
const SYNTAX: ReadonlySet<string> = new Set([
  ...words(`
  IN EXISTS VALUES AS OVER USING FROM JOIN APPLY ON AND OR NOT WHERE SELECT ALL ANY SOME THEN ELSE WHEN CASE BY
  IS LIKE BETWEEN DISTINCT UNION INTERSECT EXCEPT HAVING PRIMARY UNIQUE FOREIGN CHECK DEFAULT PARTITION ROW ROWS
  ORDER GROUP WITH TO KEY TOP PERCENT PIVOT UNPIVOT WITHIN OPTION TABLESAMPLE TABLE CLUSTERED NONCLUSTERED
  INCLUDE FOR PATH ROOT RAW INDEX INSERT ROLLUP CUBE SETS RETURN IF WHILE OUTPUT ESCAPE SYSTEM REPEATABLE
  TEXT NTEXT IMAGE SQL_VARIANT HIERARCHYID GEOGRAPHY GEOMETRY ROWVERSION TIMESTAMP MAX
  `),
  ...mssqlColumnTypes.map((t) => t.toUpperCase()),
]);

/** `NEXT VALUE FOR s` advances a sequence: state that outlives the statement. */
function statementRules(tokens: readonly AllowlistToken[]): AllowlistFinding[] {
  const out: AllowlistFinding[] = [];
  tokens.forEach((t, k) => {
    if (isWord(t, 'NEXT') && isWord(tokens[k + 1], 'VALUE') && isWord(tokens[k + 2], 'FOR'))
      out.push({ effect: 'write', subject: 'NEXT VALUE FOR', reason: 'advances a sequence' });
  });
  return out;
}

export const mssqlAllowlist: SqlAllowlist = {
  readFunctions: MSSQL_READ_FUNCTIONS,
  syntax: SYNTAX,
  statementRules,
};
