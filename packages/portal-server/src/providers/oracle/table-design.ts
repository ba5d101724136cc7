// How the table designer writes Oracle DDL (sql/table-ddl.ts reads these rules). Oracle commits each DDL
// statement by itself (no transaction around the batch); DEFAULT comes before NOT NULL in a column; a column
// is added with `ADD` and changed with MODIFY, one part at a time (MODIFY to NOT NULL a column that is NOT
// NULL already is an error, so only the changed parts are restated); an index is a schema object, named in
// the table's schema. Oracle has no CURRENT_TIME, no ON UPDATE clause, and ON DELETE CASCADE or SET NULL
// only: the rest is refused with the reason.
import type { TableDesignRules } from '../../sql/dialect.js';
import { oracleColumnTypes } from './column-types.js';

export const oracleTableDesign: TableDesignRules = {
  columnTypes: oracleColumnTypes,
  transactionalDdl: false,
  addColumnWord: 'ADD',
  defaultFirst: true,
  indexQualified: true,
  dropForeignKey: 'CONSTRAINT',
  defaultExpressions: { CURRENT_TIME: null },
  fkActions: { onDelete: ['CASCADE', 'SET NULL'], onUpdate: [] },
  alterColumn(c) {
    const modify = (part: string) => `ALTER TABLE ${c.table} MODIFY (${c.column} ${part})`;
    const out: string[] = [];
    if (c.changed.includes('type')) out.push(modify(c.type));
    // DEFAULT NULL is how Oracle drops a default.
    if (c.changed.includes('default')) out.push(modify(`DEFAULT ${c.default ?? 'NULL'}`));
    if (c.changed.includes('nullable')) out.push(modify(c.nullable ? 'NULL' : 'NOT NULL'));
    return out;
  },
};
