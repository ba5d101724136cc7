// SCRAM-SHA-256 for the MongoDB test double (RFC 5802/7677 as MongoDB's saslStart/saslContinue carry it):
// users live in a database (the one a client names as `authSource`), a connection that completed the
// conversation acts as that user, and a user holding only the `read` role is refused every write command with
// Unauthorized (code 13), as a real server with authorization enabled refuses it.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Binary } from 'bson';

type Doc = Record<string, any>;

export interface DoubleUser {
  password: string;
  role: 'read' | 'readWrite';
}

interface Conversation {
  db: string;
  user: string;
  clientFirstBare: string;
  serverFirst: string;
  salted: Buffer;
}

const ITERATIONS = 4096;
const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export class MongoAuth {
  /** `db.user` → the user; empty means authorization is off. */
  readonly users = new Map<string, DoubleUser>();
  private readonly conversations = new Map<number, Conversation>();
  /** connection id → the `db.user` it authenticated as. */
  readonly sessions = new Map<number, string>();

  get enabled(): boolean {
    return this.users.size > 0;
  }

  /** The hello reply's `saslSupportedMechs` for `db.user`, when the user exists. */
  mechanisms(name: unknown): Doc {
    return typeof name === 'string' && this.users.has(name) ? { saslSupportedMechs: ['SCRAM-SHA-256'] } : {};
  }

  role(client: number): DoubleUser['role'] | undefined {
    const who = this.sessions.get(client);
    return who ? this.users.get(who)?.role : undefined;
  }

  start(cmd: Doc, client: number): Doc {
    if (cmd.mechanism !== 'SCRAM-SHA-256') return failed();
    const text = payloadText(cmd.payload);
    const clientFirstBare = text.replace(/^n,,/, '');
    const attrs = attributes(clientFirstBare);
    const db = String(cmd.$db);
    const user = this.users.get(`${db}.${attrs.n}`);
    if (!user) return failed();
    const salt = createHash('sha256').update(`${db}.${attrs.n}`).digest().subarray(0, 16);
    const serverFirst = `r=${attrs.r}${randomBytes(18).toString('base64')},s=${salt.toString('base64')},i=${ITERATIONS}`;
    const salted = pbkdf2Sync(user.password, salt, ITERATIONS, 32, 'sha256');
    this.conversations.set(client, { db, user: attrs.n, clientFirstBare, serverFirst, salted });
    return { conversationId: 1, done: false, payload: new Binary(Buffer.from(serverFirst)), ok: 1 };
  }

  continue(cmd: Doc, client: number): Doc {
    const conv = this.conversations.get(client);
    this.conversations.delete(client);
    if (!conv) return failed();
    const text = payloadText(cmd.payload);
    const at = text.lastIndexOf(',p=');
    const withoutProof = text.slice(0, at);
    const proof = Buffer.from(text.slice(at + 3), 'base64');
    const authMessage = `${conv.clientFirstBare},${conv.serverFirst},${withoutProof}`;
    const clientKey = hmac(conv.salted, 'Client Key');
    const storedKey = createHash('sha256').update(clientKey).digest();
    const signature = hmac(storedKey, authMessage);
    const expected = Buffer.from(clientKey.map((b, i) => b ^ signature[i]));
    if (proof.length !== expected.length || !timingSafeEqual(proof, expected)) return failed();
    this.sessions.set(client, `${conv.db}.${conv.user}`);
    const serverSignature = hmac(hmac(conv.salted, 'Server Key'), authMessage).toString('base64');
    return { conversationId: 1, done: true, payload: new Binary(Buffer.from(`v=${serverSignature}`)), ok: 1 };
  }
}

function failed(): Doc {
  return { ok: 0, errmsg: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' };
}

function payloadText(p: unknown): string {
  const b = p as { buffer?: Uint8Array; position?: number };
  if (b?.buffer) return Buffer.from(b.buffer.subarray(0, b.position ?? b.buffer.length)).toString('utf8');
  return Buffer.from(p as Uint8Array).toString('utf8');
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}
