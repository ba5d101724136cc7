// The shapes the table browser's routes (table-data.ts) declare: a page of rows with its columns and count,
// an edit batch's answer, and the request pieces (filters, sorts, rows, changes, the table's path).
import { Type } from 'typebox';
import { FILTER_OPS, ROW_ID_FIELD } from '../sql/table-statements.js';

const Cell = Type.Unknown();
const TableColumnAnswer = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    nullable: Type.Boolean(),
    isPrimary: Type.Boolean(),
    masked: Type.Boolean({ description: 'values are answered masked; the column cannot be edited or steer' }),
  },
  { additionalProperties: true },
);
export const TablePage = Type.Object(
  {
    columns: Type.Array(TableColumnAnswer),
    key: Type.Array(Type.String(), {
      description: 'primary-key columns, empty when rows are keyed by rowId',
    }),
    rowId: Type.Optional(
      Type.String({ description: `the field carrying the engine row id (${ROW_ID_FIELD})` }),
    ),
    editable: Type.Boolean(),
    importable: Type.Optional(
      Type.Boolean({ description: 'rows may be imported into it (POST /api/db/import)' }),
    ),
    readOnlyReason: Type.Optional(Type.String()),
    foreignKeys: Type.Array(
      Type.Object(
        {
          columnName: Type.String(),
          referencedPath: Type.Array(Type.String()),
          referencedColumn: Type.String(),
        },
        { additionalProperties: true },
      ),
      { description: "the table's foreign keys: a cell of `columnName` names a row of `referencedPath`" },
    ),
    fields: Type.Array(Type.String()),
    rows: Type.Array(Type.Record(Type.String(), Cell)),
    total: Type.Integer({ description: 'rows matching the filters' }),
    offset: Type.Integer(),
    limit: Type.Integer(),
    executionTime: Type.Integer(),
  },
  { additionalProperties: true },
);
export const EditAnswer = Type.Object(
  {
    statements: Type.Array(Type.String(), { description: 'the batch, in order, exactly as it runs' }),
    applied: Type.Boolean({ description: 'false for a preview' }),
    results: Type.Optional(
      Type.Array(
        Type.Object({ index: Type.Integer(), rowCount: Type.Integer() }, { additionalProperties: true }),
      ),
    ),
  },
  { additionalProperties: true },
);

export const FilterSchema = {
  type: 'object',
  properties: {
    column: { type: 'string' },
    op: { type: 'string', enum: [...FILTER_OPS] },
    // Untyped in the schema: the validator would coerce a union to its first type ('1' for 1, '' for null).
    value: { description: 'string, number, boolean or null' },
  },
  required: ['column', 'op'],
  additionalProperties: false,
};
export const SortSchema = {
  type: 'object',
  properties: { column: { type: 'string' }, direction: { type: 'string', enum: ['asc', 'desc'] } },
  required: ['column', 'direction'],
  additionalProperties: false,
};
const RowSchema = {
  type: 'object',
  // Cells untyped in the schema: the validator would coerce a union to its first type ('1' for 1, '' for null).
  additionalProperties: { description: 'a cell: string, number, boolean or null (checked by the route)' },
};
export const ChangeSchema = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: ['update', 'insert', 'delete'] },
    original: RowSchema,
    values: RowSchema,
  },
  required: ['op'],
  additionalProperties: false,
};
export const PathSchema = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 512 },
  minItems: 1,
  maxItems: 4,
  description: 'the table: a DatabaseObject path (containers then the name)',
};
