// How the table designer writes MySQL/MariaDB DDL (sql/table-ddl.ts reads these rules): each DDL statement
// commits by itself, MODIFY COLUMN restates the whole column, DROP INDEX names the table, DROP FOREIGN KEY,
// and expression defaults other than CURRENT_TIMESTAMP in parentheses.
import type { TableDesignRules } from '../../sql/dialect.js';
import { mysqlColumnTypes } from './column-types.js';

export const mysqlTableDesign: TableDesignRules = {
  columnTypes: mysqlColumnTypes,
  transactionalDdl: false,
  alterColumn: (c) => [`ALTER TABLE ${c.table} MODIFY COLUMN ${c.definition}`],
  dropIndexOnTable: true,
  dropForeignKey: 'FOREIGN KEY',
  parenthesizedDefaults: true,
};
