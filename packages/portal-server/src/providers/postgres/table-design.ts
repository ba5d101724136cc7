// How the table designer writes PostgreSQL DDL (sql/table-ddl.ts reads these rules): transactional DDL,
// a column changed part by part, its values converted by USING on a type change.
import type { TableDesignRules } from '../../sql/dialect.js';
import { alterColumnParts } from '../../sql/table-alter.js';
import { postgresColumnTypes } from './column-types.js';

export const postgresTableDesign: TableDesignRules = {
  columnTypes: postgresColumnTypes,
  transactionalDdl: true,
  // USING converts the existing values the way an explicit cast would (text to integer, …).
  alterColumn: (c) => alterColumnParts(c, (x) => `${x.column}::${x.type}`),
  dropForeignKey: 'CONSTRAINT',
};
