// Pieces of the search engines that need no server: exact parsing of wide integers, the trailing-semicolon
// rule, the flavors' page and error readings, mapped fields as columns, and descriptor validation.
import { describe, expect, it } from 'vitest';
import { mappedColumns } from '../../src/providers/elasticsearch/catalog.js';
import { elasticsearchEngine } from '../../src/providers/elasticsearch/engine.js';
import { elasticsearchFlavor, errorMessage } from '../../src/providers/elasticsearch/flavor.js';
import { withoutTrailingSemicolon } from '../../src/providers/elasticsearch/pager.js';
import { parseExactJson as parseJsonExact } from '../../src/providers/exact-json.js';
import { opensearchEngine } from '../../src/providers/opensearch/engine.js';
import { opensearchFlavor } from '../../src/providers/opensearch/flavor.js';

describe('search engines: pieces', () => {
  it('keeps integers wider than 2^53 exact and leaves everything else as JSON.parse reads it', () => {
    expect(parseJsonExact('{"a":9007199254740993,"b":-9007199254740993,"c":9007199254740991}')).toEqual({
      a: '9007199254740993',
      b: '-9007199254740993',
      c: 9007199254740991,
    });
    expect(
      parseJsonExact('{"s":"12345678901234567890","e":"x\\"9007199254740993","f":1.5e300,"g":[1,2]}'),
    ).toEqual({
      s: '12345678901234567890',
      e: 'x"9007199254740993',
      f: 1.5e300,
      g: [1, 2],
    });
    expect(parseJsonExact('[18446744073709551615]')).toEqual(['18446744073709551615']);
  });

  it('strips trailing semicolons and blanks only', () => {
    expect(withoutTrailingSemicolon('SELECT 1 ; ;\n')).toBe('SELECT 1');
    expect(withoutTrailingSemicolon("SELECT ';'")).toBe("SELECT ';'");
  });

  it('reads both wire shapes and both error bodies', () => {
    expect(
      elasticsearchFlavor.parsePage({ columns: [{ name: 'a', type: 'long' }], rows: [[1]], cursor: 'c' }),
    ).toEqual({
      columns: [{ name: 'a', type: 'long' }],
      rows: [[1]],
      cursor: 'c',
    });
    expect(
      opensearchFlavor.parsePage({
        schema: [{ name: 'a', alias: 'b', type: 'long' }],
        datarows: [[1]],
        total: 1,
        size: 1,
        status: 200,
      }),
    ).toEqual({ columns: [{ name: 'b', type: 'long' }], rows: [[1]] });
    expect(() => opensearchFlavor.parsePage({ datarows: 5 })).toThrow(/not arrays/);
    // OpenSearch pages basic queries only: a LIMIT statement goes out without fetch_size.
    expect(opensearchFlavor.firstBody('SELECT a FROM t\nLIMIT 501 OFFSET 500', 501)).toEqual({
      query: 'SELECT a FROM t\nLIMIT 501 OFFSET 500',
    });
    expect(opensearchFlavor.firstBody('SELECT a FROM t LIMIT 5, 10', 9)).toEqual({
      query: 'SELECT a FROM t LIMIT 5, 10',
    });
    expect(opensearchFlavor.firstBody('SELECT a FROM t', 9)).toEqual({
      query: 'SELECT a FROM t',
      fetch_size: 9,
    });
    expect(elasticsearchFlavor.firstBody('SELECT a FROM t LIMIT 5', 6)).toEqual({
      query: 'SELECT a FROM t LIMIT 5',
      fetch_size: 6,
    });
    expect(
      errorMessage({ error: { type: 'parsing_exception', reason: 'line 1:1: bad' }, status: 400 }),
    ).toEqual({
      type: 'parsing_exception',
      message: 'line 1:1: bad',
    });
    expect(
      errorMessage({ error: { type: 'SyntaxCheckException', reason: 'Invalid SQL query', details: 'x' } }),
    ).toEqual({
      type: 'SyntaxCheckException',
      message: 'Invalid SQL query: x',
    });
  });

  it('flattens mappings into dotted columns with multi-fields and nested fields', () => {
    const cols = mappedColumns({
      a: { type: 'keyword' },
      o: { properties: { b: { type: 'long' }, deep: { properties: { c: { type: 'date' } } } } },
      n: { type: 'nested', properties: { d: { type: 'keyword' } } },
      t: { type: 'text', fields: { raw: { type: 'keyword' } } },
    });
    expect(cols.map((c) => `${c.name}:${c.type}`)).toEqual([
      'a:keyword',
      'o.b:long',
      'o.deep.c:date',
      'n:nested',
      'n.d:keyword',
      't:text',
      't.raw:keyword',
    ]);
  });

  it('takes host and port only', () => {
    for (const engine of [elasticsearchEngine, opensearchEngine]) {
      const ok = { id: 'x', type: engine.engine, host: 'search.internal', port: 9200 };
      const access = { privileged: false, embeddedDir: '/tmp' };
      expect(() => engine.validate?.(ok, access)).not.toThrow();
      expect(() => engine.validate?.({ ...ok, connectionString: 'http://h:9200' }, access)).toThrow(
        /host and port/,
      );
      expect(() => engine.validate?.({ ...ok, host: 'http://h:9200' }, access)).toThrow(/not a URL/);
      expect(() => engine.validate?.({ ...ok, host: undefined }, access)).toThrow(/needs `host`/);
      expect(engine.defaultPort).toBe(9200);
      expect(engine.capabilities.readOnlyEngine).toBe(true);
    }
    expect(() => elasticsearchEngine.sqlDialect?.limitClause(10, 20, false)).toThrow(/no OFFSET/);
    expect(opensearchEngine.sqlDialect?.limitClause(10, 20, false)).toBe('LIMIT 10 OFFSET 20');
  });
});
