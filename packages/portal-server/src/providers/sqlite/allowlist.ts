// SQLite's classifier allowlist (issue 27, docs/portal-classification.md "Allowlists"): the built-in functions
// of SQLite 3.4x (`SELECT name FROM pragma_function_list`) without load_extension and fts3_tokenizer, plus the
// read-only table-valued functions (json_each, pragma_table_info…). A function the application registered,
// readfile/writefile of the shell, or an extension's is unverifiable; so are sqlite_stat* (sampled values).
import { type EngineAllowlist, wordSet } from '../classifier-rules.js';

const FUNCTIONS = `
abs acos acosh asin asinh atan atan2 atanh avg bm25 ceil ceiling changes char coalesce concat concat_ws cos
cosh count cume_dist current_date current_time current_timestamp date datetime degrees dense_rank exp
first_value floor format fts5 fts5_get_locale fts5_insttoken fts5_locale fts5_source_id geopoly_area
geopoly_bbox geopoly_blob geopoly_ccw geopoly_contains_point geopoly_debug geopoly_group_bbox geopoly_json
geopoly_overlap geopoly_regular geopoly_svg geopoly_within geopoly_xform glob group_concat hex highlight if
ifnull iif instr json json_array json_array_insert json_array_length json_error_position json_extract
json_group_array json_group_object json_insert json_object json_patch json_pretty json_quote json_remove
json_replace json_set json_type json_valid jsonb jsonb_array jsonb_array_insert jsonb_extract
jsonb_group_array jsonb_group_object jsonb_insert jsonb_object jsonb_patch jsonb_remove jsonb_replace
jsonb_set julianday lag last_insert_rowid last_value lead length like likelihood likely ln log log10 log2
lower ltrim match matchinfo max median min mod nth_value ntile nullif octet_length offsets percent_rank
percentile percentile_cont percentile_disc pi pow power printf quote radians random randomblob rank replace
round row_number rtreecheck rtreedepth rtreenode rtrim sign sin sinh snippet soundex
sqlite_compileoption_get sqlite_compileoption_used sqlite_source_id sqlite_version sqrt strftime string_agg
substr substring subtype sum tan tanh time timediff total total_changes trim trunc typeof unhex unicode
unistr unistr_quote unixepoch unlikely upper zeroblob`;

/** SQL words node-sql-parser reports as function calls, and the table-valued functions. */
const FORMS = `current_timestamp current_date current_time localtime localtimestamp cast extract
json_each json_tree jsonb_each jsonb_tree pragma_table_info pragma_table_xinfo pragma_index_list
pragma_index_info pragma_index_xinfo pragma_foreign_key_list pragma_table_list pragma_collation_list`;

export const sqliteAllowlist: EngineAllowlist = {
  functions: wordSet(FUNCTIONS, FORMS),
  functionSchemas: ['main'],
  unverifiableRelations: wordSet('sqlite_stat1 sqlite_stat2 sqlite_stat3 sqlite_stat4'),
  catalogSchemas: [],
  catalogPrefixes: ['sqlite_', 'pragma_'],
};
