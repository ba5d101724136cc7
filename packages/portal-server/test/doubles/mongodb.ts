// A wire-level MongoDB test double (no MongoDB server installs here): a loopback TCP server speaking the
// documented wire protocol — OP_MSG (opcode 2013, body and document-sequence sections) and the legacy OP_QUERY
// `isMaster` handshake answered with OP_REPLY — with BSON from the `bson` package. Commands are answered by
// mongodb-commands.ts over in-memory collections whose query, update and aggregation semantics come from
// `mingo`. It is stateful enough for the portal's tests: real cursors with batches (find/getMore/killCursors),
// maxTimeMS answered with MaxTimeMSExpired (code 50), killOp interrupting a running command (code 11601).
import { createServer, type Server, type Socket } from 'node:net';
import { deserialize, serialize } from 'bson';
import { MongoState, runCommand } from './mongodb-commands.js';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export interface MongoDouble {
  port: number;
  uri: string;
  state: MongoState;
  close(): Promise<void>;
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextResponseId++, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

function opMsgReply(requestId: number, doc: Record<string, unknown>): Buffer {
  const body = serialize(doc);
  const flags = Buffer.alloc(5); // flagBits (0) + section kind 0
  return Buffer.concat([header(16 + 5 + body.length, requestId, OP_MSG), flags, body]);
}

function opReply(requestId: number, doc: Record<string, unknown>): Buffer {
  const body = serialize(doc);
  const fixed = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom, numberReturned
  fixed.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, requestId, OP_REPLY), fixed, body]);
}

/** The command document of an OP_MSG: the kind-0 body with every kind-1 document sequence folded in. */
function readOpMsg(msg: Buffer): Record<string, unknown> {
  const flags = msg.readUInt32LE(16);
  const end = flags & 1 ? msg.length - 4 : msg.length;
  let at = 20;
  let body: Record<string, unknown> = {};
  const sequences: Record<string, unknown[]> = {};
  while (at < end) {
    const kind = msg[at++];
    if (kind === 0) {
      const size = msg.readInt32LE(at);
      body = deserialize(msg.subarray(at, at + size));
      at += size;
    } else {
      const size = msg.readInt32LE(at);
      const stop = at + size;
      let p = at + 4;
      const nul = msg.indexOf(0, p);
      const id = msg.toString('utf8', p, nul);
      p = nul + 1;
      const docs: unknown[] = [];
      while (p < stop) {
        const n = msg.readInt32LE(p);
        docs.push(deserialize(msg.subarray(p, p + n)));
        p += n;
      }
      sequences[id] = docs;
      at = stop;
    }
  }
  return { ...body, ...sequences };
}

/** The query document of a legacy OP_QUERY (only the handshake uses it). */
function readOpQuery(msg: Buffer): { db: string; doc: Record<string, unknown> } {
  const nul = msg.indexOf(0, 20);
  const ns = msg.toString('utf8', 20, nul);
  const at = nul + 1 + 8;
  const size = msg.readInt32LE(at);
  return { db: ns.split('.')[0], doc: deserialize(msg.subarray(at, at + size)) };
}

export async function startMongoDouble(): Promise<MongoDouble> {
  const state = new MongoState();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const connectionId = ++state.connectionsCreated;
    state.connectionsCurrent++;
    socket.on('close', () => {
      sockets.delete(socket);
      state.connectionsCurrent--;
    });
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = pending.readInt32LE(0);
        if (pending.length < length) break;
        const msg = pending.subarray(0, length);
        pending = pending.subarray(length);
        const requestId = msg.readInt32LE(4);
        const opCode = msg.readInt32LE(12);
        if (opCode === OP_QUERY) {
          const { db, doc } = readOpQuery(msg);
          void runCommand(state, { ...doc, $db: db }, connectionId).then((reply) => {
            if (!socket.destroyed) socket.write(opReply(requestId, reply));
          });
        } else if (opCode === OP_MSG) {
          const doc = readOpMsg(msg);
          void runCommand(state, doc, connectionId).then((reply) => {
            if (!socket.destroyed) socket.write(opMsgReply(requestId, reply));
          });
        } else {
          socket.destroy();
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    uri: `mongodb://127.0.0.1:${port}`,
    state,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
