// Realistic values for one column (pure apart from faker's seeded randomness): chosen by the column's type,
// then its name (email, first_name, city, price …), then narrowed by what its constraints allow — enum
// values, IN lists, numeric ranges of checks and of the type's precision, lengths. Temporal values stay
// `Date`s here so cross-column checks can compare them; `formatValue` turns them into driver parameters.
import type { Faker } from '@faker-js/faker';
import type { ColumnRule } from './checks.js';
import type { SeedColumn, SeedFamily } from './types.js';

export type ValueKind =
  | 'int'
  | 'decimal'
  | 'float'
  | 'bool'
  | 'text'
  | 'json'
  | 'uuid'
  | 'date'
  | 'timestamp'
  | 'time'
  | 'binary'
  | 'inet'
  | 'enum'
  | 'interval'
  | 'year'
  | 'array'
  | 'unknown';

export function kindOf(col: SeedColumn): ValueKind {
  const t = col.type;
  if (col.enumValues?.length) return 'enum';
  if (t.endsWith('[]')) return 'array';
  if (/^(boolean|bool)$/.test(t)) return 'bool';
  if (
    /^(smallint|integer|int|bigint|tinyint|mediumint|int2|int4|int8|smallserial|serial|bigserial)( unsigned)?$/.test(
      t,
    )
  )
    return 'int';
  if (/^(numeric|decimal|money)( unsigned)?$/.test(t)) return 'decimal';
  if (/^(real|double precision|double|float|float4|float8)( unsigned)?$/.test(t)) return 'float';
  if (/^(json|jsonb)$/.test(t)) return 'json';
  if (t === 'uuid') return 'uuid';
  if (t === 'date') return 'date';
  if (/^(timestamp|datetime)/.test(t)) return 'timestamp';
  if (/^time/.test(t)) return 'time';
  if (t === 'year') return 'year';
  if (t === 'interval') return 'interval';
  if (/^(bytea|blob|tinyblob|mediumblob|longblob|binary|varbinary)$/.test(t)) return 'binary';
  if (/^(inet|cidr)$/.test(t)) return 'inet';
  if (/char|text|citext|name|^string$/.test(t)) return 'text';
  return 'unknown';
}

const INT_RANGE: Record<string, [number, number]> = {
  tinyint: [-128, 127],
  'tinyint unsigned': [0, 255],
  smallint: [-32768, 32767],
  int2: [-32768, 32767],
  smallserial: [1, 32767],
  'smallint unsigned': [0, 65535],
  mediumint: [-8388608, 8388607],
  'mediumint unsigned': [0, 16777215],
  integer: [-2147483648, 2147483647],
  int: [-2147483648, 2147483647],
  int4: [-2147483648, 2147483647],
  serial: [1, 2147483647],
  'int unsigned': [0, 4294967295],
};
const SAFE = Number.MAX_SAFE_INTEGER;

/** Inclusive integer bounds the type, the check rule and (for non-unique columns) the name allow. */
export function intBounds(col: SeedColumn, rule: ColumnRule | undefined, unique: boolean): [number, number] {
  let [lo, hi] = INT_RANGE[col.type] ?? (col.type.endsWith('unsigned') ? [0, SAFE] : [-SAFE, SAFE]);
  if (rule?.min !== undefined)
    lo = Math.max(lo, Math.ceil(rule.minInclusive ? rule.min : Math.floor(rule.min) + 1));
  if (rule?.max !== undefined)
    hi = Math.min(hi, Math.floor(rule.maxInclusive ? rule.max : Math.ceil(rule.max) - 1));
  if (unique) return [Math.max(lo, 1), hi];
  const n = col.name.toLowerCase();
  const wish: [number, number] = /(^|_)age$/.test(n)
    ? [18, 90]
    : /year/.test(n)
      ? [1990, 2030]
      : /(qty|quantity|count|stock)/.test(n)
        ? [1, 100]
        : /(rating|score|stars|priority|rank|level)/.test(n)
          ? [1, 5]
          : [1, 10_000];
  const wlo = Math.max(lo, wish[0]);
  const whi = Math.min(hi, wish[1]);
  return wlo <= whi ? [wlo, whi] : [lo, Math.min(hi, lo + 10_000)];
}

/** Numeric bounds for decimal and float columns: precision and scale, then the check rule. */
function realBounds(
  col: SeedColumn,
  rule: ColumnRule | undefined,
): { lo: number; hi: number; scale: number } {
  const scale = col.numericScale ?? 2;
  const cap = col.numericPrecision ? 10 ** (col.numericPrecision - scale) - 10 ** -scale : 1e9;
  const step = 10 ** -scale;
  let lo = col.type.endsWith('unsigned') ? 0 : -cap;
  let hi = cap;
  if (rule?.min !== undefined) lo = Math.max(lo, rule.minInclusive ? rule.min : rule.min + step);
  if (rule?.max !== undefined) hi = Math.min(hi, rule.maxInclusive ? rule.max : rule.max - step);
  // Prices and amounts look like money; other numbers stay modest.
  const wlo = Math.max(lo, /(price|amount|total|cost|balance|salary|fee)/i.test(col.name) ? 1 : 0);
  const whi = Math.min(hi, 1000);
  return wlo <= whi ? { lo: wlo, hi: whi, scale } : { lo, hi: Math.min(hi, lo + 1000), scale };
}

function textFor(f: Faker, name: string, table: string): string {
  const n = name.toLowerCase();
  if (n.includes('email')) return f.internet.email().toLowerCase();
  if (/first_?name|given/.test(n)) return f.person.firstName();
  if (/last_?name|surname|family/.test(n)) return f.person.lastName();
  if (/user_?name|login|handle|nick/.test(n)) return f.internet.username();
  if (/phone|mobile|fax/.test(n)) return f.phone.number();
  if (/country_?code/.test(n)) return f.location.countryCode();
  if (/country/.test(n)) return f.location.country();
  if (/city|town/.test(n)) return f.location.city();
  if (/state|province|region/.test(n)) return f.location.state();
  if (/zip|postal|postcode/.test(n)) return f.location.zipCode();
  if (/address|street/.test(n)) return f.location.streetAddress();
  if (/url|website|homepage|link/.test(n)) return f.internet.url();
  if (/currency/.test(n)) return f.finance.currencyCode();
  if (/colou?r/.test(n)) return f.color.human();
  if (/^ip|_ip$|ip_address/.test(n)) return f.internet.ipv4();
  if (/(password|hash|secret|token|digest)/.test(n)) return f.string.alphanumeric(40);
  if (/(sku|code|slug|ref|reference|serial)/.test(n)) return f.string.alphanumeric(10).toUpperCase();
  if (/(lang|locale)/.test(n)) return f.helpers.arrayElement(['en', 'de', 'fr', 'es', 'it']);
  if (/company|organi[sz]ation|employer|vendor|supplier/.test(n)) return f.company.name();
  if (/(title|subject|headline)/.test(n)) return f.lorem.sentence({ min: 3, max: 6 }).replace(/\.$/, '');
  if (/(description|body|content|comment|notes?|bio|summary|text|message)/.test(n)) return f.lorem.sentence();
  if (/name/.test(n)) {
    return /(user|customer|person|employee|author|member|contact|people|staff)/.test(table)
      ? f.person.fullName()
      : f.commerce.productName();
  }
  if (/status|state|type|kind|category/.test(n))
    return f.helpers.arrayElement(['active', 'pending', 'closed']);
  return f.lorem.words(2);
}

const BASE_DATE = Date.UTC(2020, 0, 1);
const TEXT_POOL = 1024;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** Produces the column's value for row `i` of this run. */
export type ValueSource = (i: number) => unknown;

/**
 * The value function of one column. `unique` makes values distinct within the run (sequence numbers for
 * integers starting after `start`, a run tag and the row number appended to text) — the run tag keeps them
 * apart from rows already in the table.
 */
export function valueSource(
  f: Faker,
  col: SeedColumn,
  table: string,
  rule: ColumnRule | undefined,
  opts: { unique: boolean; start: number; runTag: string },
): ValueSource {
  const kind = kindOf(col);
  const allowed = rule?.values ?? (kind === 'enum' ? col.enumValues : undefined);
  if (allowed?.length) {
    return opts.unique ? (i) => allowed[i % allowed.length] : () => f.helpers.arrayElement(allowed);
  }
  switch (kind) {
    case 'int':
    case 'year': {
      const [lo, hi] = kind === 'year' ? [1990, 2030] : intBounds(col, rule, opts.unique);
      if (opts.unique) {
        const first = Math.max(lo, opts.start + 1);
        return (i) => first + i;
      }
      return () => f.number.int({ min: lo, max: hi });
    }
    case 'decimal':
    case 'float': {
      const { lo, hi, scale } = realBounds(col, rule);
      if (opts.unique) return (i) => Number((lo + i * 10 ** -scale).toFixed(scale));
      return () =>
        Number(
          f.number
            .float({ min: lo, max: hi, fractionDigits: kind === 'decimal' ? scale : 4 })
            .toFixed(kind === 'decimal' ? scale : 4),
        );
    }
    case 'bool':
      return () => f.datatype.boolean();
    case 'uuid':
      return () => f.string.uuid();
    case 'json':
      return () => ({ note: f.lorem.word(), n: f.number.int({ max: 100 }) });
    case 'date':
    case 'timestamp':
      return opts.unique
        ? (i) => new Date(BASE_DATE + i * 60_000)
        : () => new Date(BASE_DATE + Math.floor(f.number.float({ min: 0, max: 5 * YEAR_MS })));
    case 'time':
      return () => new Date(Math.floor(f.number.float({ min: 0, max: 86_399_000 })));
    case 'interval':
      return () => `${f.number.int({ min: 1, max: 30 })} days`;
    case 'binary':
      return () => Buffer.from(f.string.hexadecimal({ length: 16, prefix: '' }), 'hex');
    case 'inet':
      return () => f.internet.ipv4();
    case 'array':
      return () =>
        /int/.test(col.type) ? [f.number.int(100), f.number.int(100)] : [f.lorem.word(), f.lorem.word()];
    case 'text': {
      const max = Math.min(col.maxLength ?? 200, rule?.maxLength ?? Number.POSITIVE_INFINITY);
      const min = Math.min(rule?.minLength ?? 0, max);
      if (rule?.json) return () => JSON.stringify({ note: f.lorem.word() });
      // Faker's templated values (cities, emails) cost 10-25 µs each: a pool drawn once per column keeps
      // realistic variety at a fraction of the cost (unique columns still get their run tag below).
      const pool = Array.from({ length: TEXT_POOL }, () => textFor(f, col.name, table.toLowerCase()));
      return (i) => {
        let v = pool[f.number.int(TEXT_POOL - 1)];
        if (rule?.not?.includes(v)) v = `${v}x`;
        if (opts.unique) {
          const tag = `${opts.runTag}${i.toString(36)}`;
          const at = v.indexOf('@');
          if (at > 0 && tag.length + v.length + 1 <= max) v = `${v.slice(0, at)}.${tag}${v.slice(at)}`;
          else v = `${v.slice(0, Math.max(0, max - tag.length - 1))}-${tag}`.slice(-max);
        }
        while (v.length < min) v += f.string.alpha(min - v.length);
        return v.length > max ? v.slice(0, max) : v;
      };
    }
    default:
      return () => (col.nullable ? null : f.lorem.word());
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Turns a generated value into a driver parameter for the column's kind and engine family. */
export function formatValue(v: unknown, kind: ValueKind, family: SeedFamily): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) {
    const d = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const t = `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}`;
    if (kind === 'date') return d;
    if (kind === 'time') return t;
    return family === 'mysql' ? `${d} ${t}` : v.toISOString();
  }
  if (kind === 'bool' && family === 'mysql') return v ? '1' : '0';
  // MySQL-style: numbers as their text. The provider binds a JS integer as a typed BIGINT parameter, which
  // costs mysql2 about twice the time per value of a string the server converts on insert.
  if (family === 'mysql' && typeof v === 'number') return String(v);
  // Exact decimal text: MySQL's binary protocol would otherwise send a double for the server to convert.
  if (kind === 'decimal' && typeof v === 'number') return String(v);
  if (kind === 'json' && typeof v === 'object') return JSON.stringify(v);
  if (kind === 'array' && family === 'mysql') return JSON.stringify(v);
  return v;
}
