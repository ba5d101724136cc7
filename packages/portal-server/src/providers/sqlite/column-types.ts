// The column types the table designer offers on SQLite and libSQL (provider-meta `columnTypes`): the five
// storage classes' names first, then the common declared names SQLite maps onto them by affinity.
export const sqliteColumnTypes: readonly string[] = [
  'INTEGER',
  'TEXT',
  'REAL',
  'BLOB',
  'NUMERIC',
  'INT',
  'BIGINT',
  'VARCHAR',
  'CHAR',
  'BOOLEAN',
  'DATE',
  'DATETIME',
  'DECIMAL',
  'DOUBLE',
  'FLOAT',
];
