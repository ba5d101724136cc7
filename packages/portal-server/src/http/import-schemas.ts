// The shapes the table-import routes (import.ts) declare: the preview's answer, one line of the streamed
// import's answer, and the multipart upload both take. Documentation and validation, no behaviour.
import { Type } from 'typebox';
import { DB_ERRORS } from './connection-schema.js';
import { ImportMultipart } from './import-upload.js';
import { errorResponses } from './response-schemas.js';

/** Failed rows listed in the outcome (every one is counted). */
export const FAILED_LISTED = 1000;

const Column = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    nullable: Type.Boolean(),
    isPrimary: Type.Boolean(),
    masked: Type.Boolean({ description: 'cannot be written by an import' }),
  },
  { additionalProperties: true },
);
const Mapping = Type.Array(Type.Object({ source: Type.String(), column: Type.String() }));
const Failed = Type.Object(
  {
    row: Type.Integer({ description: 'data record (or statement) number, 1-based' }),
    line: Type.Integer({ description: 'line of the file it starts on' }),
    reason: Type.String(),
  },
  { additionalProperties: true },
);
export const Preview = Type.Object(
  {
    format: Type.String(),
    columns: Type.Array(Column),
    fields: Type.Array(Type.String(), { description: 'source fields in file order' }),
    kinds: Type.Record(Type.String(), Type.String(), {
      description:
        'per source field, what its sample values look like: integer, number, boolean, date, timestamp, json, text, empty',
    }),
    mapping: Mapping,
    rows: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'the first records, by source field',
    }),
    failed: Type.Array(Failed, { description: 'records of the sample that cannot be read' }),
    statements: Type.Optional(
      Type.Array(Type.String(), { description: 'SQL scripts: the first statements' }),
    ),
    statementCount: Type.Optional(Type.Integer()),
    refusal: Type.Optional(
      Type.String({ description: 'SQL scripts: why the script is not an import into the table' }),
    ),
  },
  { additionalProperties: true },
);
export const ImportEvent = Type.Object(
  {
    type: Type.Union([Type.Literal('progress'), Type.Literal('done'), Type.Literal('error')]),
    rowCount: Type.Optional(Type.Integer({ description: 'rows written so far / in all' })),
    failedCount: Type.Optional(Type.Integer()),
    failed: Type.Optional(
      Type.Array(Failed, { description: `done: the failed rows (at most ${FAILED_LISTED})` }),
    ),
    stopped: Type.Optional(Type.Boolean()),
    statement: Type.Optional(Type.String({ description: 'done: the governed text the import ran as' })),
    durationMs: Type.Optional(Type.Integer()),
    error: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
  },
  { additionalProperties: true, description: 'one line of the application/x-ndjson answer' },
);

export const uploadSchema = (description: string, answer: object) => ({
  tags: ['database'],
  description,
  body: { content: { 'multipart/form-data': { schema: ImportMultipart } } },
  response: { 200: answer, ...DB_ERRORS, ...errorResponses(415) },
});
