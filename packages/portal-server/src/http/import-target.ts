// What both import routes (import.ts) settle before reading a file: the caller's session, the governed target
// and the table (a table, on an engine that imports rows), the read options, the mapping of the file's fields
// to the table's columns (masked columns refused), and bad input turned into 400/413.
import { createReadStream } from 'node:fs';
import { HttpError } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { QueryDeps } from '../execution/contracts.js';
import { type ResolvedTarget, resolveTarget } from '../execution/target.js';
import type { MappedColumn } from '../import/batches.js';
import { checkEncoding, ImportInputError, readRecords, TextTooLong } from '../import/records.js';
import { targetOf } from '../import/values.js';
import type { ImportOptionsValue, Upload } from './import-upload.js';
import { sessionFor } from './request-input.js';
import { readTable, type TableInfo } from './table-info.js';

export function inputError(err: unknown): never {
  if (err instanceof ImportInputError) throw new HttpError(400, err.message, 'BAD_REQUEST');
  if (err instanceof TextTooLong) throw new HttpError(413, err.message, 'PAYLOAD_TOO_LARGE');
  throw err;
}

export interface Prepared {
  session: Principal;
  target: ResolvedTarget;
  info: TableInfo;
  options: ImportOptionsValue;
}

export async function prepare(deps: QueryDeps, request: FastifyRequest, upload: Upload): Promise<Prepared> {
  const session = await sessionFor(deps, request);
  const { options } = upload;
  if (options.encoding) {
    try {
      checkEncoding(options.encoding);
    } catch (err) {
      inputError(err);
    }
  }
  const target = await resolveTarget(deps, session, options);
  const info = await readTable(deps, session, target, options.path);
  if (!target.factory.capabilities.supportsInlineRowEdit)
    throw new HttpError(400, `${target.factory.engine} does not import rows into tables`, 'UNSUPPORTED');
  if (!/table/i.test(info.detail.object.kind) || /virtual|foreign/i.test(info.detail.object.kind))
    throw new HttpError(
      400,
      `Rows are imported into tables, not a ${info.detail.object.kind}`,
      'BAD_REQUEST',
    );
  return { session, target, info, options };
}

export const readOptions = (o: ImportOptionsValue) => ({
  format: o.format === 'jsonl' ? ('jsonl' as const) : ('csv' as const),
  encoding: o.encoding ?? 'utf-8',
  delimiter: o.delimiter ?? ',',
  quote: o.quote ?? '"',
  header: o.header ?? true,
});

/** The mapping as asked (or by matching names), checked against the table and the file's fields. */
export function mappingOf(p: Prepared, fields: readonly string[]): MappedColumn[] {
  const columns = p.info.detail.columns;
  const asked =
    p.options.mapping ??
    fields.flatMap((f) => {
      const c = columns.find((col) => col.name.toLowerCase() === f.toLowerCase());
      return c && !p.info.masked.has(c.name) ? [{ source: f, column: c.name }] : [];
    });
  if (asked.length === 0)
    throw new HttpError(
      400,
      'No field of the file is named like a column of the table: give a mapping',
      'BAD_REQUEST',
    );
  const seen = new Set<string>();
  return asked.map((m) => {
    const col = columns.find((c) => c.name === m.column);
    if (!col) throw new HttpError(400, `Unknown column ${JSON.stringify(m.column)}`, 'BAD_REQUEST');
    if (p.info.masked.has(col.name))
      throw new HttpError(400, `Column ${col.name} is masked and cannot be imported into`, 'BAD_REQUEST');
    if (seen.has(col.name)) throw new HttpError(400, `Column ${col.name} is mapped twice`, 'BAD_REQUEST');
    seen.add(col.name);
    // CSV fields are known from the header (or the first record); JSON lines may add keys later on.
    if (p.options.format === 'csv' && fields.length > 0 && !fields.includes(m.source))
      throw new HttpError(400, `The file has no field ${JSON.stringify(m.source)}`, 'BAD_REQUEST');
    return { source: m.source, column: col.name, target: targetOf(col.type) };
  });
}

/** The source fields of a spooled file (its header, or the first record's), read from its start. */
export async function fieldsOf(path: string, options: ImportOptionsValue): Promise<string[]> {
  let fields: string[] = [];
  try {
    for await (const _ of readRecords(createReadStream(path), readOptions(options), (f) => {
      fields = f;
    }))
      break;
  } catch (err) {
    inputError(err);
  }
  return fields;
}
