// How the table designer writes SQL Server DDL (sql/table-ddl.ts reads these rules). T-SQL DDL is
// transactional; a column is added with `ADD`, changed with ALTER COLUMN restating its type and nullability;
// renames go through sp_rename (its first argument a literal holding the bracket-quoted name); DROP INDEX
// names the table; strings are national (N'…') so an nvarchar default keeps every character. CURRENT_DATE
// and CURRENT_TIME are not T-SQL: written as casts of GETDATE(). SQL Server keeps a column's default as a
// named constraint, which ALTER COLUMN cannot change: a default change is refused with the reason, and so is
// ON DELETE/UPDATE RESTRICT (T-SQL has NO ACTION, CASCADE, SET NULL, SET DEFAULT).
import type { TableDesignRules } from '../../sql/dialect.js';
import { DesignError } from '../../sql/table-ddl.js';
import { mssqlColumnTypes } from './column-types.js';

const literal = (s: string) => `N'${s.replaceAll("'", "''")}'`;
const ACTIONS = ['NO ACTION', 'CASCADE', 'SET NULL', 'SET DEFAULT'];

export const mssqlTableDesign: TableDesignRules = {
  columnTypes: mssqlColumnTypes,
  transactionalDdl: true,
  addColumnWord: 'ADD',
  nationalStrings: true,
  dropIndexOnTable: true,
  dropForeignKey: 'CONSTRAINT',
  defaultExpressions: {
    CURRENT_DATE: 'CAST(GETDATE() AS date)',
    CURRENT_TIME: 'CAST(GETDATE() AS time)',
  },
  fkActions: { onDelete: ACTIONS, onUpdate: ACTIONS },
  alterColumn(c) {
    if (c.changed.includes('default'))
      throw new DesignError(
        'SQL Server keeps a column default as a named constraint that ALTER COLUMN cannot change: drop it (ALTER TABLE … DROP CONSTRAINT) and add the new one in the editor.',
      );
    return [`ALTER TABLE ${c.table} ALTER COLUMN ${c.column} ${c.type} ${c.nullable ? 'NULL' : 'NOT NULL'}`];
  },
  // sp_rename takes the object's name as a string (bracket-quoted parts) and the new name unquoted.
  renameTable: (r) => `EXEC sp_rename ${literal(r.table)}, ${literal(unbracket(r.to))}`,
  renameColumn: (r) =>
    `EXEC sp_rename ${literal(`${r.table}.${r.from}`)}, ${literal(unbracket(r.to))}, N'COLUMN'`,
};

/** `[a]]b]` → `a]b`: sp_rename's new name is the bare name. */
function unbracket(quoted: string): string {
  return quoted.slice(1, -1).replaceAll(']]', ']');
}
