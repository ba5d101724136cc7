// A Cassandra test double: a loopback TCP server speaking the CQL native protocol v4 (frames in
// cassandra-frames.ts, statements evaluated by cassandra-cql.ts). It answers STARTUP with READY, or with
// AUTHENTICATE (PasswordAuthenticator) when credentials are configured, then AUTH_RESPONSE → AUTH_SUCCESS or
// a bad-credentials ERROR; OPTIONS → SUPPORTED; REGISTER → READY; QUERY, PREPARE/EXECUTE and BATCH with
// RESULT Void/Rows/SetKeyspace/Prepared/SchemaChange, result paging (page_size + paging_state) and ERROR
// frames with the protocol's codes. A frame of another protocol version gets the protocol error a v4-only
// server sends, so the driver's negotiation is exercised. No Cassandra server installs here (no Debian or npm
// package), so the portal's wide-column engine is verified against this double (docs/portal-engines.md).
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { type Bind, CqlError, CqlState, type Outcome } from './cassandra-cql.js';
import {
  type ColumnSpec,
  decodeValue,
  ERR,
  errorBody,
  frame,
  OP,
  Reader,
  result,
  Writer,
} from './cassandra-frames.js';

export { CqlState };

export interface CassandraDouble {
  port: number;
  state: CqlState;
  close(): Promise<void>;
}

interface Prepared {
  text: string;
  keyspace: string | null;
  binds: Bind[];
}

/** Starts the double on a free loopback port; `credentials` turns on PasswordAuthenticator. */
export async function startCassandraDouble(
  options: { credentials?: { user: string; password: string } } = {},
): Promise<CassandraDouble> {
  const state = new CqlState();
  const prepared = new Map<string, Prepared>();
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const client = {
      address: '127.0.0.1',
      port: socket.remotePort ?? 0,
      username: options.credentials?.user ?? 'anonymous',
    };
    state.clients.push(client);
    let keyspace: string | null = null;
    let pending = Buffer.alloc(0);
    socket.on('close', () => {
      sockets.delete(socket);
      state.clients = state.clients.filter((c) => c !== client);
    });
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9) {
        const length = pending.readUInt32BE(5);
        if (pending.length < 9 + length) break;
        const version = pending[0] & 0x7f;
        const stream = pending.readInt16BE(2);
        const opcode = pending[4];
        const body = pending.subarray(9, 9 + length);
        pending = pending.subarray(9 + length);
        const send = (op: number, b: Buffer): boolean =>
          !socket.destroyed && socket.write(frame(4, stream, op, b));
        if (version !== 4) {
          send(
            OP.ERROR,
            errorBody(
              ERR.PROTOCOL,
              `Invalid or unsupported protocol version (${version}); supported versions are (3/v3, 4/v4)`,
            ),
          );
          continue;
        }
        try {
          handle(opcode, new Reader(body), send);
        } catch (err) {
          if (err instanceof CqlError) send(OP.ERROR, errorFrame(err));
          else send(OP.ERROR, errorBody(ERR.SERVER, (err as Error).message));
        }
      }
    });

    function handle(opcode: number, r: Reader, send: (op: number, b: Buffer) => boolean): boolean {
      switch (opcode) {
        case OP.STARTUP:
          r.stringMap();
          if (options.credentials)
            return send(
              OP.AUTHENTICATE,
              new Writer().string('org.apache.cassandra.auth.PasswordAuthenticator').build(),
            );
          return send(OP.READY, Buffer.alloc(0));
        case OP.AUTH_RESPONSE: {
          const token = r.bytes() ?? Buffer.alloc(0);
          const [, user, password] = token.toString('utf8').split('\u0000');
          const c = options.credentials;
          if (!c || user !== c.user || password !== c.password)
            return send(
              OP.ERROR,
              errorBody(ERR.BAD_CREDENTIALS, 'Provided username and/or password are incorrect'),
            );
          return send(OP.AUTH_SUCCESS, new Writer().bytes(null).build());
        }
        case OP.OPTIONS:
          return send(
            OP.SUPPORTED,
            new Writer()
              .short(2)
              .string('CQL_VERSION')
              .stringList(['3.4.6'])
              .string('COMPRESSION')
              .stringList([])
              .build(),
          );
        case OP.REGISTER:
          return send(OP.READY, Buffer.alloc(0));
        case OP.QUERY: {
          const text = r.longString();
          const params = queryParameters(r, undefined);
          return answer(state.run(text, keyspace, params.values), params, send);
        }
        case OP.PREPARE: {
          const text = r.longString();
          const binds = state.prepare(text, keyspace);
          const id = createHash('md5').update(`${keyspace}\u0000${text}`).digest();
          prepared.set(id.toString('hex'), { text, keyspace, binds });
          const specs: ColumnSpec[] = binds.map((b) => ({
            keyspace: keyspace ?? 'system',
            table: 't',
            name: b.name,
            type: b.type,
          }));
          return send(OP.RESULT, result.prepared(id, specs, []));
        }
        case OP.EXECUTE: {
          const id = r.shortBytes();
          const p = prepared.get(id.toString('hex'));
          if (!p) {
            const extra = new Writer().shortBytes(id).build();
            return send(
              OP.ERROR,
              errorBody(0x2500, `Prepared query with ID ${id.toString('hex')} not found`, extra),
            );
          }
          const params = queryParameters(r, p.binds);
          return answer(state.run(p.text, p.keyspace, params.values), params, send);
        }
        case OP.BATCH: {
          r.byte();
          const n = r.short();
          const statements: Array<{ text: string; ks: string | null; values: unknown[] }> = [];
          for (let i = 0; i < n; i++) {
            const kind = r.byte();
            let text: string;
            let binds: Bind[] | undefined;
            let ks = keyspace;
            if (kind === 0) text = r.longString();
            else {
              const p = prepared.get(r.shortBytes().toString('hex'));
              if (!p) throw new CqlError(ERR.INVALID, 'Unknown prepared statement in batch');
              text = p.text;
              binds = p.binds;
              ks = p.keyspace;
            }
            const count = r.short();
            const values = Array.from({ length: count }, (_, k) => {
              const b = r.bytes();
              return binds ? decodeValue(binds[k].type, b) : b;
            });
            statements.push({ text, ks, values });
          }
          for (const s of statements) state.run(s.text, s.ks, s.values);
          return send(OP.RESULT, result.void());
        }
        default:
          return send(OP.ERROR, errorBody(ERR.PROTOCOL, `Unknown opcode ${opcode}`));
      }
    }

    function answer(out: Outcome, params: QueryParams, send: (op: number, b: Buffer) => boolean): boolean {
      switch (out.kind) {
        case 'stall':
          return false; // never answers: the client's own deadline has to stop waiting
        case 'void':
          return send(OP.RESULT, result.void());
        case 'keyspace':
          keyspace = out.keyspace;
          return send(OP.RESULT, result.setKeyspace(out.keyspace));
        case 'schema':
          return send(OP.RESULT, result.schemaChange(out.change, out.target, out.keyspace, out.name));
        case 'rows': {
          const cols: ColumnSpec[] = out.columns.map((c) => ({
            keyspace: out.keyspace,
            table: out.table,
            name: c.name,
            type: c.type,
          }));
          const from = params.pagingState ? params.pagingState.readInt32BE(0) : 0;
          const size = params.pageSize && params.pageSize > 0 ? params.pageSize : out.rows.length;
          const page = out.rows.slice(from, from + size);
          let next: Buffer | null = null;
          if (from + size < out.rows.length) {
            next = Buffer.alloc(4);
            next.writeInt32BE(from + size);
          }
          return send(OP.RESULT, result.rows(cols, page, next));
        }
      }
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    state,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface QueryParams {
  values: unknown[];
  pageSize?: number;
  pagingState?: Buffer;
}

/** <consistency><flags>[values][page_size][paging_state][serial_consistency][timestamp] (protocol v4). */
function queryParameters(r: Reader, binds: Bind[] | undefined): QueryParams {
  r.short();
  const flags = r.byte();
  const out: QueryParams = { values: [] };
  if (flags & 0x01) {
    const n = r.short();
    for (let i = 0; i < n; i++) {
      if (flags & 0x40) r.string();
      const b = r.bytes();
      out.values.push(binds?.[i] ? decodeValue(binds[i].type, b) : b);
    }
  }
  if (flags & 0x04) out.pageSize = r.int();
  if (flags & 0x08) out.pagingState = r.bytes() ?? undefined;
  return out;
}

function errorFrame(err: CqlError): Buffer {
  if (err.code === ERR.READ_TIMEOUT) {
    // <consistency><received><blockfor><data_present>
    return errorBody(err.code, err.message, new Writer().short(0x0001).int(0).int(1).byte(0).build());
  }
  if (err.code === ERR.ALREADY_EXISTS)
    return errorBody(err.code, err.message, new Writer().string('').string('').build());
  return errorBody(err.code, err.message);
}
