// The results' pure parts: how values show (NULL versus empty, masked), copy formats, column types, pivots.

import { describe, expect, it } from 'vitest';
import { cellView, columnType, copyText, jsonOf, looksMasked, maskedColumnNames } from '../src/results/cells';
import { errorTitle } from '../src/results/outcome';
import { pivot } from '../src/results/pivot';

describe('cells', () => {
  it('tells NULL from an empty string and shows masked values as masked only in masked columns', () => {
    expect(cellView(null)).toEqual({ text: 'NULL', cls: 'null' });
    expect(cellView('')).toEqual({ text: '', cls: 'empty' });
    expect(cellView('NULL')).toEqual({ text: 'NULL', cls: 'text' });
    expect(cellView('****', true)).toEqual({ text: '****', cls: 'masked' });
    expect(cellView('****', false).cls).toBe('text');
    expect(cellView('a***', true).cls).toBe('masked');
    expect(cellView({ a: 1 })).toEqual({ text: '{"a":1}', cls: 'json' });
    expect(cellView(12.5).cls).toBe('num');
    expect(looksMasked('Ada')).toBe(false);
  });

  it('copies as TSV, CSV and JSON with NULL empty in text formats and null in JSON', () => {
    const rows = [
      { id: 1, note: 'a,"b"', v: null },
      { id: 2, note: 'tab\there', v: '' },
    ];
    expect(copyText(['id', 'note', 'v'], rows, 'csv')).toBe('id,note,v\r\n1,"a,""b""",\r\n2,tab\there,');
    expect(copyText(['id', 'note', 'v'], rows, 'tsv')).toBe('id\tnote\tv\n1\ta,"b"\t\n2\ttab here\t');
    expect(JSON.parse(copyText(['id', 'v'], rows, 'json'))).toEqual([
      { id: 1, v: null },
      { id: 2, v: '' },
    ]);
  });

  it('reads column types from the engine, else from values; JSON from objects and JSON text', () => {
    expect(columnType('a', [{ a: null }, { a: 3 }])).toBe('number');
    expect(columnType('a', [{ a: 3 }], { a: 'int8' })).toBe('int8');
    expect(columnType('a', [{ a: null }])).toBe('');
    expect(jsonOf('{"x": [1]}')).toEqual({ x: [1] });
    expect(jsonOf('{not json')).toBeUndefined();
    expect(maskedColumnNames({ masking: [{ column: 'users.email' }, { column: '*.SSN' }] })).toEqual(
      new Set(['email', 'ssn']),
    );
  });
});

describe('pivot', () => {
  const rows = [
    { city: 'London', kind: 'a', amount: 10 },
    { city: 'London', kind: 'b', amount: 5 },
    { city: 'Paris', kind: 'a', amount: 7 },
    { city: null, kind: 'a', amount: 'x' },
  ];
  it('counts, sums and averages per group, split into series', () => {
    expect(pivot(rows, { groupBy: 'city', aggregate: 'count' })).toEqual({
      groups: ['London', 'Paris', 'NULL'],
      series: ['count'],
      values: [[2, 1, 1]],
    });
    expect(pivot(rows, { groupBy: 'city', measure: 'amount', aggregate: 'sum' }).values).toEqual([
      [15, 7, 0],
    ]);
    const split = pivot(rows, { groupBy: 'city', seriesBy: 'kind', measure: 'amount', aggregate: 'avg' });
    expect(split.series).toEqual(['a', 'b']);
    expect(split.values).toEqual([
      [10, 7, 0],
      [5, 0, 0],
    ]);
  });
});

describe('error titles', () => {
  it('names the governance refusals a user meets in words, with what to do next', () => {
    for (const code of [
      'MASKED_COLUMN_PREDICATE',
      'EXPLAIN_NOT_SELECT',
      'EXPORT_NOT_ALLOWED',
      'MULTIPLE_STATEMENTS',
    ]) {
      const t = errorTitle(code, 403);
      expect(t.title).not.toBe('Not allowed');
      expect(t.hint ?? '').not.toBe('');
    }
    expect(errorTitle('SOMETHING_NEW', 403).title).toBe('Not allowed');
  });
});
