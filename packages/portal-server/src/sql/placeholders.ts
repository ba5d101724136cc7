// Positional placeholder forms per parameter style, for statements the server builds itself. Client
// parameters are always bound by the driver, never substituted into text.
import { extractQueryParameters } from 'dbgate-query-splitter';
import type { SqlDialect } from './dialect.js';

export type ParameterStyle = '$n' | '?' | ':n' | '@pn';

/** The placeholder for the n-th (1-based) positional parameter. */
export function placeholder(style: ParameterStyle, n: number): string {
  switch (style) {
    case '$n':
      return `$${n}`;
    case '?':
      return '?';
    case ':n':
      return `:${n}`;
    case '@pn':
      return `@p${n}`;
  }
}

/** Placeholders 1..count joined with commas. */
export function placeholders(style: ParameterStyle, count: number, start = 1): string {
  return Array.from({ length: count }, (_, i) => placeholder(style, start + i)).join(', ');
}

const STYLE_CHAR: Record<ParameterStyle, '$' | '?' | ':' | '@'> = {
  $n: '$',
  '?': '?',
  ':n': ':',
  '@pn': '@',
};

/**
 * The parameters one statement of a script takes: a `?` statement the first k values for its k placeholders,
 * a numbered style (`$n`, `:n`, `@pn`) the values up to the highest number it names. Strings and comments
 * are skipped by the engine's own splitter grammar.
 */
export function paramsForStatement<T>(
  dialect: SqlDialect,
  style: ParameterStyle,
  statement: string,
  params: readonly T[],
): T[] {
  if (params.length === 0) return [];
  const names = extractQueryParameters(statement, {
    ...dialect.splitter,
    queryParameterStyle: STYLE_CHAR[style],
  });
  if (style === '?') return params.slice(0, names.length);
  const highest = names.reduce((max, n) => Math.max(max, Number(n.replace(/^[^0-9]+/, '')) || 0), 0);
  return params.slice(0, highest);
}
