// Export serialisers: CSV (RFC 4180: CRLF lines, a field quoted when it holds the delimiter, a quote, CR or
// LF, quotes doubled), a JSON array of row objects, SQL INSERT statements and SQL DDL (CREATE TABLE followed
// by the INSERTs). Each turns a batch of rows into one string, so memory is bounded by the batch size.

import { jsonValue } from '../providers/values.js';
import type { SqlDialect } from '../sql/dialect.js';
import { quoteIdent, quoteLiteral } from '../sql/quote.js';

export type ExportFormat = 'csv' | 'json' | 'sql-insert' | 'sql-ddl';
export const EXPORT_FORMATS: ExportFormat[] = ['csv', 'json', 'sql-insert', 'sql-ddl'];

export const EXTENSION: Record<ExportFormat, string> = {
  csv: 'csv',
  json: 'json',
  'sql-insert': 'sql',
  'sql-ddl': 'sql',
};
export const CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  'sql-insert': 'application/sql; charset=utf-8',
  'sql-ddl': 'application/sql; charset=utf-8',
};

export interface ExportWriter {
  /** Text before the first row (header line, `[`, CREATE TABLE). Called once the fields are known. */
  head(fields: string[], columnTypes: string[] | undefined): string;
  rows(rows: unknown[][]): string;
  tail(): string;
}

function textOf(v: unknown): string | null {
  const j = jsonValue(v);
  if (j === null) return null;
  if (typeof j === 'object') return JSON.stringify(j);
  return String(j);
}

export function csvWriter(delimiter: string): ExportWriter {
  const escaped = delimiter.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const needsQuote = new RegExp(`${escaped}|["\\r\\n]`);
  const field = (v: unknown): string => {
    const t = typeof v === 'string' ? v : textOf(v);
    if (t === null) return '';
    return needsQuote.test(t) ? `"${t.replaceAll('"', '""')}"` : t;
  };
  return {
    head: (fields) => `${fields.map(field).join(delimiter)}\r\n`,
    rows(rows) {
      let out = '';
      for (const row of rows) {
        let line = '';
        for (let i = 0; i < row.length; i++) line += (i === 0 ? '' : delimiter) + field(row[i]);
        out += `${line}\r\n`;
      }
      return out;
    },
    tail: () => '',
  };
}

export function jsonWriter(): ExportWriter {
  let names: string[] = [];
  let first = true;
  return {
    head(fields) {
      names = fields;
      return '[';
    },
    rows(rows) {
      let out = '';
      for (const row of rows) {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) o[names[i]] = jsonValue(row[i]);
        out += `${first ? '\n' : ',\n'}${JSON.stringify(o)}`;
        first = false;
      }
      return out;
    },
    tail: () => (first ? ']\n' : '\n]\n'),
  };
}

/** A SQL literal for one value in the dialect (booleans as 1/0 where the engine has no boolean literal). */
export function sqlLiteral(dialect: SqlDialect, v: unknown): string {
  const j = jsonValue(v);
  if (j === null) return 'NULL';
  if (typeof j === 'number') return String(j);
  if (typeof j === 'boolean') return dialect.numericBooleans ? (j ? '1' : '0') : j ? 'TRUE' : 'FALSE';
  if (typeof j === 'object') return quoteLiteral(dialect, JSON.stringify(j));
  return quoteLiteral(dialect, String(j));
}

/** Engine type names that are usable in CREATE TABLE as they are; anything else becomes TEXT. */
function ddlType(type: string | undefined): string {
  if (!type || /^(oid:|type:|unknown|ANY$|NULL$)/i.test(type)) return 'TEXT';
  return /^[A-Za-z][A-Za-z0-9_ ]*(\(\s*\d+(\s*,\s*\d+)?\s*\))?(\[\])?$/.test(type) ? type : 'TEXT';
}

export function sqlWriter(dialect: SqlDialect, table: string, withDdl: boolean): ExportWriter {
  const qTable = quoteIdent(dialect, table);
  let prefix = '';
  return {
    head(fields, types) {
      prefix = `INSERT INTO ${qTable} (${fields.map((f) => quoteIdent(dialect, f)).join(', ')}) VALUES (`;
      if (!withDdl) return '';
      const cols = fields.map((f, i) => `  ${quoteIdent(dialect, f)} ${ddlType(types?.[i])}`);
      return `CREATE TABLE ${qTable} (\n${cols.join(',\n')}\n);\n\n`;
    },
    rows(rows) {
      let out = '';
      for (const row of rows) out += `${prefix}${row.map((v) => sqlLiteral(dialect, v)).join(', ')});\n`;
      return out;
    },
    tail: () => '',
  };
}

export function writerFor(
  format: ExportFormat,
  dialect: SqlDialect,
  table: string,
  delimiter: string,
): ExportWriter {
  switch (format) {
    case 'csv':
      return csvWriter(delimiter);
    case 'json':
      return jsonWriter();
    case 'sql-insert':
      return sqlWriter(dialect, table, false);
    case 'sql-ddl':
      return sqlWriter(dialect, table, true);
  }
}
