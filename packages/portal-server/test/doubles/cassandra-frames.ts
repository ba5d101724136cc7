// The CQL native protocol v4 frame codec of the Cassandra test double (cassandra.ts): frame headers, the
// protocol's primitive notations ([int], [short], [string], [long string], [bytes], [short bytes],
// [string multimap]), typed value encoding/decoding for the column types the double keeps, and the RESULT and
// ERROR bodies. Written from the protocol specification (native_protocol_v4.spec), nothing borrowed from a
// driver, so the driver under test is checked against the documented wire format.

export const OP = {
  ERROR: 0x00,
  STARTUP: 0x01,
  READY: 0x02,
  AUTHENTICATE: 0x03,
  OPTIONS: 0x05,
  SUPPORTED: 0x06,
  QUERY: 0x07,
  RESULT: 0x08,
  PREPARE: 0x09,
  EXECUTE: 0x0a,
  REGISTER: 0x0b,
  BATCH: 0x0d,
  AUTH_RESPONSE: 0x0f,
  AUTH_SUCCESS: 0x10,
} as const;

export const ERR = {
  SERVER: 0x0000,
  PROTOCOL: 0x000a,
  BAD_CREDENTIALS: 0x0100,
  READ_TIMEOUT: 0x1200,
  SYNTAX: 0x2000,
  UNAUTHORIZED: 0x2100,
  INVALID: 0x2200,
  ALREADY_EXISTS: 0x2400,
} as const;

/** A CQL type: a native type name, or a collection of them. */
export type CqlType =
  | { kind: 'native'; name: string }
  | { kind: 'list' | 'set'; of: CqlType }
  | { kind: 'map'; key: CqlType; value: CqlType };

const NATIVE_CODES: Record<string, number> = {
  ascii: 0x0001,
  bigint: 0x0002,
  blob: 0x0003,
  boolean: 0x0004,
  counter: 0x0005,
  decimal: 0x0006,
  double: 0x0007,
  float: 0x0008,
  int: 0x0009,
  timestamp: 0x000b,
  uuid: 0x000c,
  text: 0x000d,
  varchar: 0x000d,
  varint: 0x000e,
  timeuuid: 0x000f,
  inet: 0x0010,
};

export function parseType(text: string): CqlType {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/^frozen<(.*)>$/, '$1');
  const m = /^(list|set|map)<(.*)>$/.exec(t);
  if (m) {
    if (m[1] === 'map') {
      const [k, v] = m[2].split(',');
      return { kind: 'map', key: parseType(k), value: parseType(v) };
    }
    return { kind: m[1] as 'list' | 'set', of: parseType(m[2]) };
  }
  if (!(t in NATIVE_CODES)) throw new Error(`Unknown type ${text}`);
  return { kind: 'native', name: t === 'varchar' ? 'text' : t };
}

export function typeText(t: CqlType): string {
  if (t.kind === 'native') return t.name;
  if (t.kind === 'map') return `map<${typeText(t.key)}, ${typeText(t.value)}>`;
  return `${t.kind}<${typeText(t.of)}>`;
}

/** Reads the primitive notations from a request body. */
export class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  byte(): number {
    return this.buf.readUInt8(this.pos++);
  }
  short(): number {
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  int(): number {
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  long(): bigint {
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }
  string(): string {
    const n = this.short();
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  longString(): string {
    const n = this.int();
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  bytes(): Buffer | null {
    const n = this.int();
    if (n < 0) return null;
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  shortBytes(): Buffer {
    const n = this.short();
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  stringMap(): Record<string, string> {
    const n = this.short();
    const out: Record<string, string> = {};
    for (let i = 0; i < n; i++) out[this.string()] = this.string();
    return out;
  }
}

/** Builds a response body from the primitive notations. */
export class Writer {
  private parts: Buffer[] = [];
  raw(b: Buffer): this {
    this.parts.push(b);
    return this;
  }
  byte(v: number): this {
    return this.raw(Buffer.from([v]));
  }
  short(v: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(v);
    return this.raw(b);
  }
  int(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    return this.raw(b);
  }
  string(s: string): this {
    const b = Buffer.from(s, 'utf8');
    return this.short(b.length).raw(b);
  }
  bytes(b: Buffer | null): this {
    if (b === null) return this.int(-1);
    return this.int(b.length).raw(b);
  }
  shortBytes(b: Buffer): this {
    return this.short(b.length).raw(b);
  }
  stringList(list: string[]): this {
    this.short(list.length);
    for (const s of list) this.string(s);
    return this;
  }
  typeOption(t: CqlType): this {
    if (t.kind === 'native') return this.short(NATIVE_CODES[t.name]);
    if (t.kind === 'map') return this.short(0x0021).typeOption(t.key).typeOption(t.value);
    return this.short(t.kind === 'list' ? 0x0020 : 0x0022).typeOption(t.of);
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export function frame(version: number, stream: number, opcode: number, body: Buffer): Buffer {
  const h = Buffer.alloc(9);
  h.writeUInt8(0x80 | version, 0);
  h.writeUInt8(0, 1);
  h.writeInt16BE(stream, 2);
  h.writeUInt8(opcode, 4);
  h.writeUInt32BE(body.length, 5);
  return Buffer.concat([h, body]);
}

/** A decimal kept exactly: unscaled digits and a scale (value = unscaled × 10^-scale). */
export interface Decimal {
  unscaled: bigint;
  scale: number;
}

export function decimalFromText(text: string): Decimal {
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m) throw new Error(`Not a decimal: ${text}`);
  const frac = m[3] ?? '';
  return { unscaled: BigInt(`${m[1]}${m[2] || '0'}${frac}`), scale: frac.length };
}

function varintBytes(v: bigint): Buffer {
  // Two's complement, big-endian, minimal length.
  let hex = '';
  let n = v;
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  } while (!((n === 0n && (bytes[0] & 0x80) === 0) || (n === -1n && (bytes[0] & 0x80) !== 0)));
  hex = Buffer.from(bytes).toString('hex');
  return Buffer.from(hex, 'hex');
}

function varintFrom(b: Buffer): bigint {
  if (b.length === 0) return 0n;
  let v = BigInt(`0x${b.toString('hex')}`);
  if (b[0] & 0x80) v -= 1n << BigInt(b.length * 8);
  return v;
}

/** Serialises one value of a column type (null → null bytes). */
export function encodeValue(t: CqlType, v: unknown): Buffer | null {
  if (v === null || v === undefined) return null;
  if (t.kind !== 'native') {
    const w = new Writer();
    if (t.kind === 'map') {
      const entries = Object.entries(v as Record<string, unknown>);
      w.int(entries.length);
      for (const [k, val] of entries) w.bytes(encodeValue(t.key, k)).bytes(encodeValue(t.value, val));
    } else {
      const list = v as unknown[];
      w.int(list.length);
      for (const item of list) w.bytes(encodeValue(t.of, item));
    }
    return w.build();
  }
  switch (t.name) {
    case 'text':
    case 'ascii':
      return Buffer.from(String(v), 'utf8');
    case 'int': {
      const b = Buffer.alloc(4);
      b.writeInt32BE(Number(v));
      return b;
    }
    case 'bigint':
    case 'counter':
    case 'timestamp': {
      const b = Buffer.alloc(8);
      b.writeBigInt64BE(BigInt(v as bigint | number));
      return b;
    }
    case 'varint':
      return varintBytes(BigInt(v as bigint));
    case 'decimal': {
      const d = v as Decimal;
      const scale = Buffer.alloc(4);
      scale.writeInt32BE(d.scale);
      return Buffer.concat([scale, varintBytes(d.unscaled)]);
    }
    case 'double': {
      const b = Buffer.alloc(8);
      b.writeDoubleBE(Number(v));
      return b;
    }
    case 'float': {
      const b = Buffer.alloc(4);
      b.writeFloatBE(Number(v));
      return b;
    }
    case 'boolean':
      return Buffer.from([v ? 1 : 0]);
    case 'blob':
      return Buffer.from(v as Buffer);
    case 'uuid':
    case 'timeuuid':
      return Buffer.from(String(v).replaceAll('-', ''), 'hex');
    case 'inet':
      return Buffer.from(String(v).split('.').map(Number));
    default:
      throw new Error(`No encoder for ${t.name}`);
  }
}

/** Reads one bound value sent by the client. */
export function decodeValue(t: CqlType, b: Buffer | null): unknown {
  if (b === null) return null;
  if (t.kind !== 'native') {
    const r = new Reader(b);
    const n = r.int();
    if (t.kind === 'map') {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < n; i++)
        out[String(decodeValue(t.key, r.bytes()))] = decodeValue(t.value, r.bytes());
      return out;
    }
    return Array.from({ length: n }, () => decodeValue(t.of, r.bytes()));
  }
  switch (t.name) {
    case 'text':
    case 'ascii':
      return b.toString('utf8');
    case 'int':
      return b.readInt32BE(0);
    case 'bigint':
    case 'counter':
      return b.readBigInt64BE(0);
    case 'timestamp':
      return Number(b.readBigInt64BE(0));
    case 'varint':
      return varintFrom(b);
    case 'decimal':
      return { scale: b.readInt32BE(0), unscaled: varintFrom(b.subarray(4)) };
    case 'double':
      return b.readDoubleBE(0);
    case 'float':
      return b.readFloatBE(0);
    case 'boolean':
      return b[0] !== 0;
    case 'blob':
      return Buffer.from(b);
    case 'uuid':
    case 'timeuuid': {
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case 'inet':
      return [...b].join('.');
    default:
      throw new Error(`No decoder for ${t.name}`);
  }
}

export interface ColumnSpec {
  keyspace: string;
  table: string;
  name: string;
  type: CqlType;
}

function writeMetadata(w: Writer, cols: ColumnSpec[], pagingState: Buffer | null): void {
  const global = cols.length > 0;
  w.int((global ? 0x0001 : 0) | (pagingState ? 0x0002 : 0)).int(cols.length);
  if (pagingState) w.bytes(pagingState);
  if (global) w.string(cols[0].keyspace).string(cols[0].table);
  for (const c of cols) w.string(c.name).typeOption(c.type);
}

export const result = {
  void: () => new Writer().int(0x0001).build(),
  rows(cols: ColumnSpec[], rows: unknown[][], pagingState: Buffer | null): Buffer {
    const w = new Writer().int(0x0002);
    writeMetadata(w, cols, pagingState);
    w.int(rows.length);
    for (const row of rows) for (let i = 0; i < cols.length; i++) w.bytes(encodeValue(cols[i].type, row[i]));
    return w.build();
  },
  setKeyspace: (ks: string) => new Writer().int(0x0003).string(ks).build(),
  prepared(id: Buffer, binds: ColumnSpec[], cols: ColumnSpec[]): Buffer {
    const w = new Writer().int(0x0004).shortBytes(id);
    // Bind metadata: flags, count, partition-key indexes (none declared), then the specs.
    w.int(binds.length > 0 ? 0x0001 : 0)
      .int(binds.length)
      .int(0);
    if (binds.length > 0) w.string(binds[0].keyspace).string(binds[0].table);
    for (const b of binds) w.string(b.name).typeOption(b.type);
    writeMetadata(w, cols, null);
    return w.build();
  },
  schemaChange(change: string, target: string, keyspace: string, name?: string): Buffer {
    const w = new Writer().int(0x0005).string(change).string(target).string(keyspace);
    if (name !== undefined) w.string(name);
    return w.build();
  },
};

export function errorBody(code: number, message: string, extra?: Buffer): Buffer {
  const w = new Writer().int(code).string(message);
  if (extra) w.raw(extra);
  return w.build();
}
