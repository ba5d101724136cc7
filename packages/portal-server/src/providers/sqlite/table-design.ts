// How the table designer writes SQLite DDL (sql/table-ddl.ts reads these rules). SQLite's ALTER TABLE
// renames tables and columns and adds and drops columns; every other change (a column's type, nullability or
// default, a key, dropping a column a key or index uses) is made by rebuilding the table (table-rebuild.ts).
// libSQL speaks the same dialect; the designer is offered (and tested) on SQLite files.
import type { TableDesignRules } from '../../sql/dialect.js';
import { sqliteColumnTypes } from './column-types.js';
import { sqliteRebuild } from './table-rebuild.js';

export const sqliteTableDesign: TableDesignRules = {
  columnTypes: sqliteColumnTypes,
  transactionalDdl: true,
  addColumnLimited: true,
  indexSchemaOnName: true,
  bareReferences: true,
  dropForeignKey: 'CONSTRAINT',
  rebuild: sqliteRebuild,
};
