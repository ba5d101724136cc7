// The editor splits a script where the server will (the splitter options provider-meta answers): a text the
// editor runs as one statement through /api/db/query must be one statement there too, or the server refuses
// it as several — the message about /api/db/multi-query a person should never see. Compared per engine on
// texts with semicolons in strings, quoted identifiers, comments, dollar quotes, GO batches and blocks.
import { describe, expect, it } from 'vitest';
import { editorMeta } from '../../portal-server/src/providers/editor-facts.js';
import { engineFor } from '../../portal-server/src/providers/registry.js';
import { splitScript } from '../../portal-server/src/sql/split.js';
import { splitStatements } from '../src/editor/statements';

const ENGINES = [
  'postgres',
  'mysql',
  'mssql',
  'oracle',
  'sqlite',
  'libsql',
  'duckdb',
  'clickhouse',
  'druid',
  'trino',
  'athena',
  'cassandra',
  'couchbase',
  'mongodb',
  'redis',
  'leveldb',
  'elasticsearch',
  'opensearch',
] as const;

const TEXTS = [
  'select 1; select 2',
  "select 'a;b'; select 2",
  'select 1\nGO\nselect 2',
  'select $$a;b$$; select 2',
  'select 1 -- x;\n; select 2',
  'select `a;b` from t; select 2',
  'select "a;b"; select 2',
  'select 1 # c;\n; select 2',
  'select 1 /* ; */ ; select 2',
  "select 'it\\'s;'; select 2",
  'BEGIN\n  select 1;\n  select 2;\nEND;\nselect 3',
  'GET a\nGET b',
];

describe('the editor splits scripts where the server does', () => {
  for (const engine of ENGINES) {
    it(engine, () => {
      // What provider-meta answers for the engine, through JSON as the browser receives it.
      const facts = JSON.parse(JSON.stringify(editorMeta(engineFor(engine))));
      for (const text of TEXTS) {
        const server = splitScript(engineFor(engine).sqlDialect, text);
        const editor = splitStatements(text, facts);
        expect(editor.length, `${engine}: ${JSON.stringify(text)}`).toBe(server.length);
      }
    });
  }

  it('runs a T-SQL text of two statements as two (it was one, so the server refused it)', () => {
    expect(splitStatements('select 1; select 2', editorMeta(engineFor('mssql'))).map((s) => s.text)).toEqual([
      'select 1',
      'select 2',
    ]);
  });
});
