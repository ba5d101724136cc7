// The DDL Oracle's table designer writes (table-design.ts), as the classifier's exact grammar reads it
// (governance/classify/designed-ddl.ts): the designer's column types (TIMESTAMP WITH [LOCAL] TIME ZONE as
// its words), CURRENT_TIMESTAMP and CURRENT_DATE as default keywords (SYSDATE, USER and the like are
// functions: unverifiable), MODIFY (…) one part at a time, and ALTER TABLE's RENAME forms.
import type { DesignedDdlForms } from '../classifier-rules.js';
import { oracleColumnTypes } from './column-types.js';

export const oracleDesignedDdl: DesignedDdlForms = {
  columnTypes: oracleColumnTypes,
  defaultKeywords: ['CURRENT_TIMESTAMP', 'CURRENT_DATE'],
  nationalStrings: false,
  alterColumn: 'MODIFY',
  renames: true,
};
