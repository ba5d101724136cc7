// libSQL's classifier allowlist (issue 27): SQLite's (providers/sqlite/allowlist.ts) and libSQL's vector
// functions, which compute on the values they are given and read nothing else.
import { type EngineAllowlist, wordSet } from '../classifier-rules.js';
import { sqliteAllowlist } from '../sqlite/allowlist.js';

const VECTOR_FUNCTIONS = `vector vector32 vector64 vector16 vector8 vector1bit vector_extract vector_distance_cos
vector_distance_l2 vector_top_k libsql_vector_idx vector_concat vector_slice`;

export const libsqlAllowlist: EngineAllowlist = {
  ...sqliteAllowlist,
  functions: new Set([...sqliteAllowlist.functions, ...wordSet(VECTOR_FUNCTIONS)]),
};
