// PostgreSQL value parsing: date and time values stay the server's text (no time-zone shifts), int8 becomes a
// number when it fits exactly, and type OIDs get their SQL names for `columnTypes`.
import pg from 'pg';

const AS_TEXT = [1082, 1083, 1114, 1184, 1186, 1266, 1115, 1182, 1185, 1187];

export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (v: string) => unknown {
    if (AS_TEXT.includes(oid)) return (v: string) => v;
    if (oid === 20) {
      return (v: string) => {
        const n = Number(v);
        return Number.isSafeInteger(n) ? n : v;
      };
    }
    return pg.types.getTypeParser(oid, format ?? 'text') as (v: string) => unknown;
  },
};

const NAMES: Record<number, string> = {
  16: 'boolean',
  17: 'bytea',
  18: 'char',
  19: 'name',
  20: 'bigint',
  21: 'smallint',
  23: 'integer',
  25: 'text',
  26: 'oid',
  114: 'json',
  142: 'xml',
  700: 'real',
  701: 'double precision',
  1042: 'character',
  1043: 'character varying',
  1082: 'date',
  1083: 'time without time zone',
  1114: 'timestamp without time zone',
  1184: 'timestamp with time zone',
  1186: 'interval',
  1266: 'time with time zone',
  1700: 'numeric',
  2950: 'uuid',
  3802: 'jsonb',
  1000: 'boolean[]',
  1005: 'smallint[]',
  1007: 'integer[]',
  1016: 'bigint[]',
  1009: 'text[]',
  1015: 'character varying[]',
  2951: 'uuid[]',
};

export function pgTypeName(oid: number, extra: Map<number, string>): string {
  return NAMES[oid] ?? extra.get(oid) ?? `oid:${oid}`;
}
