// The upload side of table imports (http/import.ts): the multipart body read as a stream — the `options`
// field (JSON) first, then the one `file` part, never buffered whole — the options checked against their
// schema without coercion, and the file spooled to disk while its size and SHA-256 are taken, so the import
// can be approved as exactly that file and then read again in bounded memory.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from '@app/kit';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/** Largest file an import takes (the spool is on disk; memory stays bounded whatever the size). */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024 * 1024;
/** Rows shown by the preview at most. */
export const PREVIEW_MAX = 100;

export const ImportOptions = Type.Object(
  {
    connection: Type.Optional(Type.Object({}, { additionalProperties: true })),
    connectionId: Type.Optional(Type.String()),
    path: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
      minItems: 1,
      maxItems: 4,
      description: 'the table: a DatabaseObject path (containers then the name)',
    }),
    format: Type.Union([Type.Literal('csv'), Type.Literal('jsonl'), Type.Literal('sql')]),
    encoding: Type.Optional(
      Type.String({
        maxLength: 20,
        description: 'utf-8 (default), utf-16le, utf-16be, latin1, windows-1252, iso-8859-15',
      }),
    ),
    delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 1, description: 'CSV: default `,`' })),
    quote: Type.Optional(Type.String({ minLength: 1, maxLength: 1, description: 'CSV: default `"`' })),
    header: Type.Optional(
      Type.Boolean({ description: 'CSV: the first record names the fields (default true)' }),
    ),
    mapping: Type.Optional(
      Type.Array(
        Type.Object(
          {
            source: Type.String({
              minLength: 1,
              maxLength: 512,
              description: 'header name, JSON key, or position 1, 2, … of a CSV without header',
            }),
            column: Type.String({ minLength: 1, maxLength: 512 }),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: 1000,
          description: 'source field → table column; default: the fields named like a column',
        },
      ),
    ),
    batchSize: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 5000, description: 'rows per INSERT (default 1000)' }),
    ),
    onError: Type.Optional(
      Type.Union([Type.Literal('skip'), Type.Literal('stop')], {
        description:
          'skip (default): a refused row is reported and the import goes on; stop: the first ends it',
      }),
    ),
    ticket: Type.Optional(Type.String()),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: PREVIEW_MAX, description: 'preview: rows to show (default 20)' }),
    ),
  },
  { additionalProperties: false },
);
export type ImportOptionsValue = Static<typeof ImportOptions>;

/** The multipart body as OpenAPI describes it. */
export const ImportMultipart = Type.Object(
  {
    options: Type.String({
      contentMediaType: 'application/json',
      description: 'the import options as JSON (ImportOptions); sent before the file',
    }),
    file: Type.String({ format: 'binary', description: 'the file (CSV, JSON lines or an SQL script)' }),
  },
  { additionalProperties: false },
);

const checkOptions = Compile(ImportOptions);

export interface Upload {
  options: ImportOptionsValue;
  file: MultipartFile;
}

/** Reads the options field and opens the file part (its bytes are not read yet). */
export async function openUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart())
    throw new HttpError(
      415,
      'Send multipart/form-data: the field "options" (JSON), then the part "file"',
      'UNSUPPORTED_MEDIA_TYPE',
    );
  let text: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== 'options' || text !== undefined)
          throw new HttpError(400, `Unexpected form field "${part.fieldname}"`, 'BAD_REQUEST');
        text = String(part.value);
        continue;
      }
      if (text === undefined)
        throw new HttpError(400, 'Send the "options" field before the file', 'BAD_REQUEST');
      return { options: parseOptions(text), file: part };
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413) throw new HttpError(413, (err as Error).message, 'PAYLOAD_TOO_LARGE');
    throw new HttpError(400, `The multipart body is malformed: ${(err as Error).message}`, 'BAD_REQUEST');
  }
  throw new HttpError(400, 'The body has no "file" part', 'BAD_REQUEST');
}

function parseOptions(text: string): ImportOptionsValue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'options is not JSON', 'BAD_REQUEST');
  }
  if (checkOptions.Check(value)) return value;
  const e = [...checkOptions.Errors(value)][0];
  const path = e?.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : 'options';
  const missing = (e?.params as { requiredProperties?: string[] } | undefined)?.requiredProperties?.[0];
  throw new HttpError(
    400,
    missing ? `options.${missing} is required` : `options: ${path} ${e?.message ?? 'is invalid'}`,
    'BAD_REQUEST',
  );
}

export interface Spooled {
  path: string;
  bytes: number;
  sha256: string;
  remove(): Promise<void>;
}

/** Writes the file part to the spool folder, taking its size and SHA-256 on the way. */
export async function spoolFile(file: MultipartFile, dir: string): Promise<Spooled> {
  const path = join(dir, `import-${randomUUID()}`);
  const remove = () => rm(path, { force: true });
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(file.file, tap, createWriteStream(path));
  } catch (err) {
    await remove();
    throw new HttpError(400, `The upload did not arrive whole: ${(err as Error).message}`, 'BAD_REQUEST');
  }
  if (file.file.truncated) {
    await remove();
    throw new HttpError(413, `The file is larger than ${IMPORT_MAX_BYTES} bytes`, 'PAYLOAD_TOO_LARGE');
  }
  return { path, bytes, sha256: hash.digest('hex'), remove };
}
