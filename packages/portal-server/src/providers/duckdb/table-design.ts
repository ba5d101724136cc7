// How the table designer writes DuckDB DDL (sql/table-ddl.ts reads these rules). DuckDB's DDL is
// transactional and its ALTER COLUMN is PostgreSQL's (TYPE … USING, SET/DROP NOT NULL, SET/DROP DEFAULT);
// ADD COLUMN takes no constraint, so a NOT NULL column is added and then SET NOT NULL. Its ALTER TABLE has
// no ADD or DROP of a foreign key (1.x: "No support for that ALTER TABLE option yet"): refused with the
// reason. A column an index depends on cannot be changed either — DuckDB answers that itself (400).
import type { TableDesignRules } from '../../sql/dialect.js';
import { alterColumnParts } from '../../sql/table-alter.js';
import { duckdbColumnTypes } from './column-types.js';

export const duckdbTableDesign: TableDesignRules = {
  columnTypes: duckdbColumnTypes,
  transactionalDdl: true,
  alterColumn: (c) => alterColumnParts(c, (x) => `${x.column}::${x.type}`),
  addColumnNotNullApart: true,
  dropForeignKey: 'CONSTRAINT',
  refuse: {
    addForeignKey:
      'DuckDB cannot add a foreign key to an existing table (its ALTER TABLE has no ADD FOREIGN KEY): declare it when creating the table.',
    dropForeignKey:
      'DuckDB cannot drop a foreign key of an existing table (its ALTER TABLE has no DROP CONSTRAINT): recreate the table without it.',
  },
};
