// The column types the table designer offers on Oracle (provider-meta `columnTypes`). LONG and LONG RAW
// are left out (deprecated), and so are INTERVAL types (their precision sits inside the words).
export const oracleColumnTypes: readonly string[] = [
  'NUMBER',
  'INTEGER',
  'FLOAT',
  'BINARY_FLOAT',
  'BINARY_DOUBLE',
  'VARCHAR2',
  'NVARCHAR2',
  'CHAR',
  'NCHAR',
  'CLOB',
  'NCLOB',
  'BLOB',
  'RAW',
  'DATE',
  'TIMESTAMP',
  'TIMESTAMP WITH TIME ZONE',
  'TIMESTAMP WITH LOCAL TIME ZONE',
];
