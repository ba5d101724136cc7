// The DDL SQL Server's table designer writes (table-design.ts), as the classifier's exact grammar reads it
// (governance/classify/designed-ddl.ts): the designer's column types, CURRENT_TIMESTAMP as the one default
// keyword (CURRENT_DATE/TIME are written as CAST(GETDATE() …): a call, so still unverifiable), N'…' strings
// and ALTER COLUMN. Renames go through EXEC sp_rename, which stays unverifiable like every EXEC.
import type { DesignedDdlForms } from '../classifier-rules.js';
import { mssqlColumnTypes } from './column-types.js';

export const mssqlDesignedDdl: DesignedDdlForms = {
  columnTypes: mssqlColumnTypes,
  defaultKeywords: ['CURRENT_TIMESTAMP'],
  nationalStrings: true,
  alterColumn: 'ALTER COLUMN',
  renames: false,
};
