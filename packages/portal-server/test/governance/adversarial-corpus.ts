// The adversarial corpus of issue 27 for PostgreSQL, SQLite, libSQL and DuckDB: forms an attacker tries
// (guarded writes spelled without the words the guardrails look for, upserts of every row, dynamic SQL,
// unknown functions, files and catalogs, masked values read by inference or whole rows, hidden tables),
// and harmless forms that must keep running. adversarial-db.test.ts sends them through the portal's routes to
// real engines and reads each engine directly afterwards.

export type EngineName = 'postgres' | 'sqlite' | 'libsql' | 'duckdb';

/** Predicates every row of `t` (ids 1…20, a = id * 10, name = 'row <id>') satisfies. */
const ALL_ROWS_COMMON = [
  'id = +id',
  'id = id + 0',
  'id = id - 0',
  'id = id * 1',
  'id = (id)',
  'CAST(id AS INTEGER) = id',
  'id = id',
  'id IS NOT NULL',
  'id > 0',
  'id < 1000',
  'a >= 10',
  "name LIKE 'row%'",
  'length(name) > 0',
  'id <> -1',
  'coalesce(id, 0) >= 0',
  'abs(id) = id',
  'id BETWEEN 1 AND 20',
  'id IN (SELECT id FROM t)',
  'EXISTS (SELECT 1 FROM t)',
  'NOT (id < 0)',
  'id + 1 > id',
  'lower(name) = lower(name)',
  'id % 1 = 0',
  "name || '' = name",
  'id >= (SELECT min(id) FROM t)',
  '/* a comment */ id = id',
  'ID = Id',
  '"id" = "id"',
];

const ALL_ROWS_PG = ['id = ANY(ARRAY[id])', 'id::int = id', 'id = id::bigint', '(id = id) IS TRUE'];

/** Guarded writes that touch every row of `t`: held on a guarded datasource, refused on a read-only one. */
export function everyRowWrites(engine: EngineName): string[] {
  const preds = [...ALL_ROWS_COMMON, ...(engine === 'postgres' || engine === 'duckdb' ? ALL_ROWS_PG : [])];
  const out: string[] = [];
  for (const p of preds) {
    out.push(`UPDATE t SET a = a + 1 WHERE ${p}`);
    out.push(`DELETE FROM t WHERE ${p}`);
  }
  const upserts: Record<EngineName, string[]> = {
    postgres: [
      'INSERT INTO t SELECT id, a + 1, name FROM t ON CONFLICT (id) DO UPDATE SET a = excluded.a',
      'MERGE INTO t USING t s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a + 1',
      'MERGE INTO t USING (SELECT id FROM t) s ON t.id = s.id WHEN MATCHED THEN DELETE',
      'WITH x AS (UPDATE t SET a = a + 1 WHERE id > 0 RETURNING id) SELECT count(*) FROM x',
      'UPDATE t SET a = a + 1 FROM u WHERE true',
      'DELETE FROM t USING u WHERE t.id > 0',
    ],
    sqlite: [
      'INSERT OR REPLACE INTO t SELECT id, a + 1, name FROM t',
      'REPLACE INTO t SELECT id, a + 1, name FROM t',
      'INSERT INTO t SELECT id, a, name FROM t WHERE true ON CONFLICT (id) DO UPDATE SET a = excluded.a + 1',
      'UPDATE OR REPLACE t SET a = a + 1 WHERE id > 0',
      'DELETE FROM t WHERE rowid > 0',
      'UPDATE t SET a = a + 1 WHERE rowid = rowid',
    ],
    libsql: [
      'INSERT OR REPLACE INTO t SELECT id, a + 1, name FROM t',
      'REPLACE INTO t SELECT id, a + 1, name FROM t',
      'INSERT INTO t SELECT id, a, name FROM t WHERE true ON CONFLICT (id) DO UPDATE SET a = excluded.a + 1',
      'DELETE FROM t WHERE rowid > 0',
    ],
    duckdb: [
      'INSERT OR REPLACE INTO t SELECT id, a + 1, name FROM t',
      'INSERT INTO t SELECT id, a, name FROM t ON CONFLICT DO UPDATE SET a = excluded.a + 1',
      'DELETE FROM t WHERE rowid >= 0',
    ],
  };
  return [...out, ...upserts[engine]];
}

/** Forms that must not run unverified: dynamic SQL, unknown functions, files, programs, statistics catalogs. */
export function unverifiableForms(engine: EngineName): string[] {
  switch (engine) {
    case 'postgres':
      return [
        "DO $$BEGIN EXECUTE 'TRUNC' || 'ATE t'; END$$",
        "DO $$BEGIN EXECUTE format('DELETE FROM %I', 't'); END$$",
        "SELECT pg_read_file('/etc/hostname')",
        "SELECT pg_read_binary_file('/etc/hostname')",
        "SELECT * FROM pg_ls_dir('.')",
        "SELECT lo_import('/etc/hostname')",
        "COPY t TO PROGRAM 'true'",
        "COPY t FROM '/etc/hostname'",
        "COPY t TO '/tmp/portal-adversarial.csv'",
        'SELECT * FROM pg_stats',
        'SELECT * FROM pg_catalog.pg_statistic',
        "SELECT * FROM ts_stat('SELECT to_tsvector(name) FROM t')",
        "SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, ''b''::tsquery')",
        "SELECT query_to_xml('SELECT * FROM secret', true, true, '')",
        'SELECT wipe()',
        'SELECT public.wipe()',
        'SELECT * FROM wipe_rows()',
        'CALL purge()',
        'PREPARE p AS DELETE FROM t; EXECUTE p',
        "SELECT dblink_exec('dbname=x', 'DELETE FROM t')",
        'SELECT * FROM pg_stat_activity',
        "SELECT pg_catalog.pg_read_file('/etc/hostname')",
      ];
    case 'sqlite':
    case 'libsql':
      return [
        "SELECT load_extension('/tmp/x')",
        "SELECT readfile('/etc/hostname')",
        "SELECT writefile('/tmp/portal-adversarial', 'x')",
        'SELECT * FROM sqlite_stat1',
        'SELECT * FROM sqlite_stat4',
        'SELECT wipe()',
        "SELECT fts3_tokenizer('simple')",
        'SELECT edit(name) FROM t',
        "SELECT * FROM generate_series(1, 3) WHERE eval('DELETE FROM t')",
        "SELECT eval('DELETE FROM t')",
      ];
    case 'duckdb':
      return [
        "SELECT * FROM query('DELETE FROM t')",
        "SELECT * FROM query('SELECT * FROM secret')",
        "SELECT * FROM query_table('secret')",
        "SELECT * FROM read_csv('/etc/hostname')",
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM glob('/etc/*')",
        "SELECT * FROM pragma_storage_info('t')",
        'SELECT * FROM duckdb_secrets()',
        "SELECT getenv('HOME')",
        "COPY t TO '/tmp/portal-adversarial.csv'",
        "SELECT * FROM histogram('secret', secret)",
        'SELECT * FROM wipe()',
        "SELECT * FROM sniff_csv('/etc/hostname')",
      ];
  }
}

/** Masked values (users.email) read by inference, whole rows or copies: refused or held for a user. */
export function maskedLeaks(engine: EngineName): string[] {
  const common = [
    "SELECT email AS e FROM users WHERE e LIKE 'a%'",
    'SELECT email AS e FROM users ORDER BY e',
    'SELECT name FROM users UNION SELECT email FROM users ORDER BY name',
    "SELECT id FROM users WHERE email LIKE 'a%'",
    'SELECT id FROM users ORDER BY email',
    'SELECT count(*) FROM users GROUP BY email',
    "SELECT id FROM users GROUP BY id HAVING max(email) > 'a'",
    'SELECT id, row_number() OVER (ORDER BY email) FROM users',
    'SELECT u.id FROM users u JOIN users v ON u.email = v.email',
    'SELECT id FROM users ORDER BY 2',
    'INSERT INTO w (id, a, name) SELECT id, 0, email FROM users',
    'UPDATE w SET name = (SELECT email FROM users WHERE users.id = w.id) WHERE id = 1',
    "SELECT id FROM (SELECT id, email FROM users) x WHERE x.email > 'a'",
    "WITH x AS (SELECT email AS e FROM users) SELECT count(*) FROM x WHERE e LIKE 'a%'",
  ];
  const pg = [
    'SELECT u::text FROM users u',
    'SELECT to_jsonb(u) FROM users u',
    'SELECT row_to_json(users) FROM users',
    'SELECT to_json(u.*) FROM users u',
    'SELECT users FROM users',
  ];
  const duck = ['SELECT users::VARCHAR FROM users', "SELECT COLUMNS('em.*') FROM users", 'SUMMARIZE users'];
  return [
    ...common,
    ...(engine === 'postgres' ? pg : engine === 'duckdb' ? [...pg.slice(0, 1), ...duck] : []),
  ];
}

/** Hidden objects (secret) reached by name, through catalogs or SQL text: refused for a user. */
export function hiddenReaches(engine: EngineName): string[] {
  const schema = engine === 'postgres' ? 'public' : 'main';
  const common = [
    'SELECT * FROM secret',
    `SELECT * FROM ${schema}.secret`,
    'WITH x AS (SELECT * FROM secret) SELECT * FROM x',
    'SELECT (SELECT count(*) FROM secret)',
  ];
  switch (engine) {
    case 'postgres':
      return [
        ...common,
        'SELECT * FROM information_schema.tables',
        'SELECT relname FROM pg_class',
        'SELECT * FROM pg_catalog.pg_tables',
        "SELECT query_to_xml('SELECT * FROM secret', true, true, '')",
        // Existence probes: a hidden table's name resolved, or its number turned back into a name.
        "SELECT 'secret'::regclass",
        "SELECT 'public.secret'::regclass::oid",
        'SELECT CAST(\'"secret"\' AS regclass)',
        "SELECT regclass 'secret'",
        "SELECT to_regclass('secret') IS NULL",
        "SELECT to_regclass('public.secret')",
        "SELECT 'secret'::regtype",
        "SELECT to_regtype('secret')",
        "SELECT pg_relation_size('secret')",
        "SELECT pg_total_relation_size('public.secret')",
        "SELECT has_table_privilege('secret', 'select')",
        "SELECT has_column_privilege('secret', 'secret', 'select')",
        "SELECT obj_description('secret'::regclass, 'pg_class')",
        "SELECT row_security_active('secret')",
        'SELECT NULL::secret',
        'SELECT (NULL::public.secret).*',
        "SELECT json_populate_record(NULL::secret, '{}')",
        "SELECT to_regclass('sec' || 'ret')",
        'SELECT (SELECT max(oid) FROM pg_class)::regclass',
        'SELECT 16385::regclass',
        'SELECT format_type(16387, NULL)',
        "SELECT count(*) FROM pg_attribute WHERE attrelid = 'secret'::regclass",
        "EXPLAIN SELECT 'secret'::regclass",
      ];
    case 'duckdb':
      return [...common, 'SELECT * FROM duckdb_tables()', "SELECT * FROM query('SELECT * FROM secret')"];
    default:
      return [...common, 'SELECT sql FROM sqlite_master', "SELECT * FROM pragma_table_info('secret')"];
  }
}

/** Harmless reads that must run (answer 200). */
export function harmlessReads(engine: EngineName): string[] {
  const common = [
    'SELECT * FROM t',
    'SELECT count(*) FROM t',
    'SELECT lower(name), upper(name), length(name) FROM t',
    'SELECT id, a FROM t WHERE id = 3',
    'SELECT coalesce(a, 0) AS a FROM t ORDER BY id LIMIT 5',
    'SELECT max(a), min(a), avg(a), sum(a) FROM t',
    'SELECT t.id, u.name FROM t JOIN users u ON u.id = t.id',
    'WITH x AS (SELECT id FROM t WHERE id < 5) SELECT count(*) FROM x',
    'SELECT id, email FROM users',
    'SELECT name FROM users WHERE id = 1',
    'SELECT id, row_number() OVER (ORDER BY id) FROM t',
    "SELECT replace(name, 'row', 'r') FROM t",
    'SELECT abs(-1), round(2.5)',
    'SELECT id FROM t WHERE name IN (SELECT name FROM users)',
    'SELECT DISTINCT a FROM t',
    'SELECT id FROM t UNION SELECT id FROM users ORDER BY 1',
    'EXPLAIN SELECT * FROM t',
  ];
  switch (engine) {
    case 'postgres':
      return [
        ...common,
        'COPY t TO STDOUT',
        'SELECT now(), current_date, gen_random_uuid() IS NOT NULL',
        'SELECT * FROM generate_series(1, 3)',
        "SELECT jsonb_build_object('a', 1), to_char(now(), 'YYYY')",
        "SELECT string_agg(name, ',') FROM t",
        'SELECT pg_catalog.lower(name) FROM t',
        // Addresses of visible objects resolve as before.
        "SELECT 't'::regclass::text",
        "SELECT to_regclass('public.t') IS NOT NULL",
        "SELECT has_table_privilege('t', 'select')",
        'SELECT NULL::t IS NULL',
        "SELECT id::bigint, a::numeric(10, 2), name::varchar(20), '{}'::jsonb, now()::date FROM t",
      ];
    case 'duckdb':
      return [
        ...common,
        'FROM t',
        'SELECT * FROM range(3)',
        "SELECT list_value(1, 2), strftime(now(), '%Y')",
        "SELECT string_agg(name, ',') FROM t",
      ];
    default:
      return [
        ...common,
        'SELECT id, sum(a) OVER w FROM t WINDOW w AS (ORDER BY id)',
        "SELECT json_extract('{\"a\":1}', '$.a')",
        "SELECT group_concat(name, ',') FROM t",
        "SELECT datetime('now') IS NOT NULL",
      ];
  }
}
