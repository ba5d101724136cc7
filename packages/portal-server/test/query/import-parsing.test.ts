// The pure parts of table imports: the CSV parser gives the same records however the text is cut into
// chunks (property-based), quoting rules and line numbers; JSON lines; the apparent type of sample values
// and the parameter a value is bound as; the INSERT per dialect with placeholders only; an SQL script
// judged an import into the table or not.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { CsvParser, type CsvRecord } from '../../src/import/csv.js';
import { readRecords, type SourceRecord } from '../../src/import/records.js';
import { scriptRefusal, statementLines } from '../../src/import/script.js';
import { commonKind, kindOf, paramOf, targetOf } from '../../src/import/values.js';
import { sqlDialect } from '../../src/providers/registry.js';
import { importInsertSql, importRequestText, rowsPerStatement } from '../../src/sql/import-statements.js';

function parse(chunks: string[], delimiter = ','): CsvRecord[] {
  const p = new CsvParser({ delimiter, quote: '"' });
  const out: CsvRecord[] = [];
  for (const c of chunks) p.push(c, out);
  return p.end(out);
}

async function records(text: string, options: Partial<Parameters<typeof readRecords>[1]> = {}) {
  const out: SourceRecord[] = [];
  const input = Readable.from([Buffer.from(text)]);
  for await (const r of readRecords(input, {
    format: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
    quote: '"',
    header: true,
    ...options,
  }))
    out.push(r);
  return out;
}

describe('CSV parser', () => {
  it('reads quotes, doubled quotes, delimiters and line breaks inside quotes, CRLF, and line numbers', () => {
    const text = 'a,b\r\n"x, y","say ""hi"""\r\n"multi\nline",\n\nlast,"" ';
    const r = parse([text]);
    expect(r.map((x) => x.fields)).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', ''],
      ['last', ' '],
    ]);
    expect(r.map((x) => x.line)).toEqual([1, 2, 3, 6]);
    expect(r[2].quoted).toEqual([true, false]);
  });

  it('gives the same records however the text is cut into chunks', () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 6 }).map((s) => s.replace(/[",\r\n]/g, 'x')),
      fc.string({ maxLength: 6 }).map((s) => `"${s.replaceAll('"', '""')}"`),
    );
    const line = fc.array(cell, { minLength: 1, maxLength: 4 }).map((cells) => cells.join(','));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 8 }),
        (lines, eol, cuts) => {
          const text = lines.join(eol);
          const whole = parse([text]);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const p of points) {
            chunks.push(text.slice(from, p));
            from = p;
          }
          chunks.push(text.slice(from));
          expect(parse(chunks)).toEqual(whole);
        },
      ),
      { seed: 30, numRuns: 300 },
    );
  });

  it('refuses an unclosed quote at the end and an odd delimiter', () => {
    expect(() => parse(['a,"open\n'])).toThrow(/not closed/);
    expect(() => new CsvParser({ delimiter: '"', quote: '"' })).toThrow();
  });
});

describe('records', () => {
  it('names CSV fields by the header, NULL for an empty unquoted field, and reports a short record', async () => {
    const r = await records('id,name\n1,\n2,""\n3\n');
    expect(r).toEqual([
      { row: 1, line: 2, values: { id: '1', name: null } },
      { row: 2, line: 3, values: { id: '2', name: '' } },
      { row: 3, line: 4, error: 'expected 2 fields as in the header, found 1' },
    ]);
    const positional = await records('1;a\n', { header: false, delimiter: ';' });
    expect(positional[0].values).toEqual({ 1: '1', 2: 'a' });
  });

  it('reads JSON lines, a line that is not an object reported', async () => {
    const r = await records('{"a":1}\r\n\n[1]\n{"a":', { format: 'jsonl' });
    expect(r.map((x) => x.values ?? x.error)).toEqual([
      { a: 1 },
      'a JSON line must hold an object',
      expect.stringMatching(/^not JSON/),
    ]);
    expect(r.map((x) => x.line)).toEqual([1, 3, 4]);
  });
});

describe('values', () => {
  it('tells the kind of sample values', () => {
    expect(
      ['1', '-2', '3.5e2', 'true', '2024-01-02', '2024-01-02 10:00:00', 'x', '', null].map(kindOf),
    ).toEqual(['integer', 'integer', 'number', 'boolean', 'date', 'timestamp', 'text', 'empty', 'empty']);
    expect(commonKind(['1', '2.5', null])).toBe('number');
    expect(commonKind(['1', 'x'])).toBe('text');
    expect(commonKind(['2024-01-01', '2024-01-01T10:00'])).toBe('timestamp');
  });

  it('binds booleans for boolean columns, JSON text for documents, text otherwise', () => {
    expect(targetOf('tinyint(1)')).toBe('boolean');
    expect(targetOf('integer')).toBe('other');
    expect(paramOf('Yes', 'boolean')).toBe(true);
    expect(paramOf('0', 'boolean')).toBe(false);
    expect(paramOf('maybe', 'boolean')).toBe('maybe');
    expect(paramOf({ a: 1 }, 'other')).toBe('{"a":1}');
    expect(paramOf(null, 'other')).toBeNull();
    expect(paramOf("'; DROP TABLE x; --", 'other')).toBe("'; DROP TABLE x; --");
  });
});

describe('import statements', () => {
  it('builds multi-row INSERTs with placeholders in each engine style, values never in the text', () => {
    expect(importInsertSql(sqlDialect('postgres'), '$n', ['public', 'my "t"'], ['a', 'b c'], 2)).toBe(
      'INSERT INTO "public"."my ""t""" ("a", "b c") VALUES ($1, $2), ($3, $4)',
    );
    expect(importInsertSql(sqlDialect('mysql'), '?', ['db', 't'], ['a'], 2)).toBe(
      'INSERT INTO `db`.`t` (`a`) VALUES (?), (?)',
    );
    expect(importInsertSql(sqlDialect('oracle'), ':n', ['S', 'T'], ['A'], 2)).toBe(
      'INSERT ALL INTO "S"."T" ("A") VALUES (:1) INTO "S"."T" ("A") VALUES (:2) SELECT 1 FROM dual',
    );
    expect(rowsPerStatement('?', 10, 5000)).toBe(3000);
    expect(rowsPerStatement('@pn', 10, 5000)).toBe(200);
  });

  it('names the file by size and hash in the governed text, a hostile name kept on its comment line', () => {
    const text = importRequestText(sqlDialect('sqlite'), '?', ['main', 't'], ['a'], {
      format: 'csv',
      name: 'x.csv\nDROP TABLE t; --',
      bytes: 10,
      sha256: 'ab',
    });
    expect(text).toBe(
      '-- import csv file "x.csv?DROP TABLE t; --" (10 bytes, sha256 ab)\nINSERT INTO "main"."t" ("a") VALUES (?)',
    );
  });

  it('accepts scripts of INSERTs into the table only', async () => {
    const judge = async (sql: string) =>
      scriptRefusal(await classifyScript(sql, 'postgres'), ['public', 'people']);
    expect(
      await judge("INSERT INTO people (id) VALUES (1); INSERT INTO public.people VALUES (2, 'x');"),
    ).toBeUndefined();
    expect(await judge('INSERT INTO other VALUES (1)')).toMatch(/writes other/);
    expect(await judge('INSERT INTO people SELECT * FROM secrets')).toMatch(/reads/);
    expect(await judge('DELETE FROM people')).toMatch(/a DELETE/);
    expect(statementLines('a;\n\nb;\nc;', ['a', 'b', 'c'])).toEqual([1, 3, 4]);
  });
});
