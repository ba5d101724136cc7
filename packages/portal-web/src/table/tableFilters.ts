// The table browser's filter boxes as the server reads them (`POST /api/db/table/rows` filters) and the
// short pause after typing before a filter is sent, so each keystroke does not read the table again.
import { useEffect, useState } from 'react';

/** A filter box's text as the server's filter: `=x` equals, `>x`/`<x` compare, `null`/`!null`, else contains. */
export function filterOf(column: string, text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (t.toLowerCase() === 'null') return { column, op: 'is_null' };
  if (t.toLowerCase() === '!null') return { column, op: 'not_null' };
  const m = /^(>=|<=|!=|=|>|<)(.*)$/.exec(t);
  if (m) {
    const op = { '=': 'equals', '!=': 'not_equals', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' }[m[1]];
    return { column, op, value: m[2].trim() };
  }
  return { column, op: 'contains', value: t };
}

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
