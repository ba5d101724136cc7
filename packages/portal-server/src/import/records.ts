// Reads an import file as records, streaming: bytes are decoded in the chosen encoding (iconv-lite), then
// parsed as CSV (csv.ts) or JSON lines, one record at a time, so memory stays bounded whatever the file's
// size. The first record of a CSV with a header names the fields; a record that cannot be read (a JSON line
// that does not parse, a CSV record with the wrong number of fields) is yielded with its reason so the
// import reports it as a failed row instead of stopping.
import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { CsvError, CsvParser, type CsvRecord } from './csv.js';

export type ImportFormat = 'csv' | 'jsonl' | 'sql';

export interface ReadOptions {
  format: 'csv' | 'jsonl';
  encoding: string;
  delimiter: string;
  quote: string;
  /** CSV: the first record names the fields. */
  header: boolean;
}

/** One data record: its field values by source name (CSV without header: `1`, `2`, … by position). */
export interface SourceRecord {
  /** 1-based number of the data record (the header is not counted). */
  row: number;
  /** 1-based line of the file it starts on. */
  line: number;
  values?: Record<string, unknown>;
  /** Set when the record could not be read; `values` is then absent. */
  error?: string;
}

/** A problem with the whole file or its options (400): unknown encoding, bad delimiter, unclosed quote. */
export class ImportInputError extends Error {}

export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'latin1', 'windows-1252', 'iso-8859-15'];

export function checkEncoding(encoding: string): void {
  if (!ENCODINGS.includes(encoding.toLowerCase()))
    throw new ImportInputError(
      `Unknown encoding ${JSON.stringify(encoding)}: one of ${ENCODINGS.join(', ')}`,
    );
}

/** The decoded text of `input`, chunk by chunk (a byte-order mark is dropped). */
async function* decoded(input: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<string> {
  checkEncoding(encoding);
  const decoder = iconv.getDecoder(encoding, { stripBOM: true });
  for await (const chunk of input) {
    const text = decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Source field names by position for a CSV without header: `1`, `2`, … */
export const positionName = (i: number) => String(i + 1);

/**
 * The records of the file, in the groups each decoded chunk completes (one await per chunk rather than per
 * record: at a million rows the per-record promise hops cost more than the parsing); `onFields` is told the
 * source field names as soon as they are known.
 */
export async function* readRecordGroups(
  input: Readable | AsyncIterable<Buffer>,
  options: ReadOptions,
  onFields?: (fields: string[]) => void,
): AsyncGenerator<SourceRecord[]> {
  const text = decoded(input as AsyncIterable<Buffer>, options.encoding);
  if (options.format === 'jsonl') yield* jsonLines(text, onFields);
  else yield* csvRecords(text, options, onFields);
}

/** The records of the file one by one (the preview, which reads a few). */
export async function* readRecords(
  input: Readable | AsyncIterable<Buffer>,
  options: ReadOptions,
  onFields?: (fields: string[]) => void,
): AsyncGenerator<SourceRecord> {
  for await (const group of readRecordGroups(input, options, onFields)) yield* group;
}

async function* csvRecords(
  text: AsyncIterable<string>,
  options: ReadOptions,
  onFields?: (fields: string[]) => void,
): AsyncGenerator<SourceRecord[]> {
  let parser: CsvParser;
  try {
    parser = new CsvParser({ delimiter: options.delimiter, quote: options.quote });
  } catch (err) {
    throw new ImportInputError((err as Error).message);
  }
  let names: string[] | undefined;
  let row = 0;
  const batch: CsvRecord[] = [];
  const take = (records: CsvRecord[]): SourceRecord[] => {
    const group: SourceRecord[] = [];
    for (const r of records) {
      if (!names) {
        if (options.header) {
          names = r.fields.map((f, i) => f.trim() || positionName(i));
          onFields?.(names);
          continue;
        }
        names = r.fields.map((_, i) => positionName(i));
        onFields?.(names);
      }
      row++;
      if (options.header && r.fields.length !== names.length) {
        group.push({
          row,
          line: r.line,
          error: `expected ${names.length} fields as in the header, found ${r.fields.length}`,
        });
        continue;
      }
      const values: Record<string, unknown> = {};
      for (let i = 0; i < r.fields.length; i++) {
        const name = names[i] ?? positionName(i);
        // An empty unquoted field is NULL; an empty quoted field ("") is the empty string.
        values[name] = r.fields[i] === '' && !r.quoted[i] ? null : r.fields[i];
      }
      group.push({ row, line: r.line, values });
    }
    records.length = 0;
    return group;
  };
  try {
    for await (const chunk of text) {
      parser.push(chunk, batch);
      const group = take(batch);
      if (group.length) yield group;
    }
    parser.end(batch);
    const group = take(batch);
    if (group.length) yield group;
  } catch (err) {
    if (err instanceof CsvError) throw new ImportInputError(err.message);
    throw err;
  }
  if (!names) onFields?.([]);
}

async function* jsonLines(
  text: AsyncIterable<string>,
  onFields?: (fields: string[]) => void,
): AsyncGenerator<SourceRecord[]> {
  let carry = '';
  let line = 0;
  let row = 0;
  let announced = false;
  const parse = (raw: string): SourceRecord | undefined => {
    line++;
    const t = raw.trim();
    if (t === '') return undefined;
    row++;
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (err) {
      return { row, line, error: `not JSON: ${(err as Error).message}` };
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      return { row, line, error: 'a JSON line must hold an object' };
    if (!announced) {
      announced = true;
      onFields?.(Object.keys(v));
    }
    return { row, line, values: v as Record<string, unknown> };
  };
  for await (const chunk of text) {
    carry += chunk;
    let nl = carry.indexOf('\n');
    let from = 0;
    const group: SourceRecord[] = [];
    while (nl !== -1) {
      const r = parse(carry.slice(from, nl));
      if (r) group.push(r);
      from = nl + 1;
      nl = carry.indexOf('\n', from);
    }
    carry = carry.slice(from);
    if (group.length) yield group;
    if (carry.length > 16 * 1024 * 1024)
      throw new ImportInputError(`line ${line + 1}: a JSON line is longer than 16 MiB`);
  }
  const last = parse(carry);
  if (last) yield [last];
  if (!announced) onFields?.([]);
}

/** The whole text of a small file (SQL scripts), decoded; `max` characters at most. */
export async function readText(input: AsyncIterable<Buffer>, encoding: string, max: number): Promise<string> {
  let out = '';
  for await (const chunk of decoded(input, encoding)) {
    out += chunk;
    if (out.length > max) throw new TextTooLong(max);
  }
  return out;
}

export class TextTooLong extends Error {
  constructor(readonly max: number) {
    super(`The script is longer than ${max} characters`);
  }
}
