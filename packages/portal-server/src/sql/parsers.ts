// The SQL parsers, loaded on first use: libpg-query (PostgreSQL's own grammar, a WASM module) and
// node-sql-parser (every other grammar, a large bundle). A portal whose users run no SQL, or only one
// family, never holds the other in memory. Auto-limit (analyze.ts), the classifier and masking lineage all
// parse through here, so each parser is loaded and instantiated once.
import { createRequire } from 'node:module';
import type NodeSqlParser from 'node-sql-parser';

const load = createRequire(import.meta.url);

type NspParser = InstanceType<typeof NodeSqlParser.Parser>;
let nsp: NspParser | undefined;

/** The node-sql-parser instance (loaded synchronously on the first call; the module is CommonJS). */
export function nspParser(): NspParser {
  nsp ??= new (load('node-sql-parser') as typeof NodeSqlParser).Parser();
  return nsp;
}

type PgModule = typeof import('libpg-query');
let pg: Promise<PgModule> | undefined;

/** Parses with libpg-query (PostgreSQL's grammar; DuckDB's derives from it). */
export async function pgParse(text: string): ReturnType<PgModule['parse']> {
  pg ??= import('libpg-query');
  return (await pg).parse(text);
}
