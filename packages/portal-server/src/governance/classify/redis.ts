// Classifies a Redis command (the key-value engine has no SQL grammar). The verdict comes from the command
// flags the client library ships (@ioredis/commands, generated from the server's COMMAND output): a command
// flagged `readonly` reads, everything else writes, and a command the table does not know fails closed as a
// doubtful write. Container commands (CONFIG, CLIENT, ACL, OBJECT, …) carry no flags there, so their
// read-only subcommands are listed here; any other subcommand writes. Scripts and functions (EVAL, EVALSHA,
// FCALL) write unless they are the _RO variants. Keys named by the command are its objects.
import { exists, getKeyIndexes, hasFlag } from '@ioredis/commands';
import { parseRedisCommand } from '../../providers/redis/command.js';
import type { GuardrailValue, ScriptClassification, StatementClassification } from './types.js';

/** Harmless commands without the `readonly` flag (they touch no data). */
const HARMLESS = new Set(['PING', 'ECHO', 'INFO', 'TIME', 'LASTSAVE', 'ROLE', 'COMMAND', 'LOLWUT', 'HELLO']);

/** Read-only subcommands of container commands. */
const READ_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  CONFIG: new Set(['GET', 'HELP']),
  CLIENT: new Set(['LIST', 'INFO', 'GETNAME', 'ID', 'HELP', 'TRACKINGINFO', 'GETREDIR']),
  OBJECT: new Set(['ENCODING', 'FREQ', 'IDLETIME', 'REFCOUNT', 'HELP']),
  MEMORY: new Set(['USAGE', 'STATS', 'DOCTOR', 'MALLOC-STATS', 'HELP']),
  ACL: new Set(['WHOAMI', 'LIST', 'USERS', 'CAT', 'GETUSER', 'HELP', 'DRYRUN', 'GENPASS']),
  FUNCTION: new Set(['LIST', 'DUMP', 'STATS', 'HELP']),
  SCRIPT: new Set(['EXISTS', 'HELP']),
  SLOWLOG: new Set(['GET', 'LEN', 'HELP']),
  LATENCY: new Set(['LATEST', 'HISTORY', 'DOCTOR', 'GRAPH', 'HISTOGRAM', 'HELP']),
  CLUSTER: new Set(['INFO', 'NODES', 'SLOTS', 'SHARDS', 'MYID', 'KEYSLOT', 'COUNTKEYSINSLOT', 'HELP']),
  MODULE: new Set(['LIST', 'HELP']),
  PUBSUB: new Set(['CHANNELS', 'NUMSUB', 'NUMPAT', 'SHARDCHANNELS', 'SHARDNUMSUB', 'HELP']),
  XINFO: new Set(['STREAM', 'GROUPS', 'CONSUMERS', 'HELP']),
};

/** Commands that change the connection itself: transaction blocks, database switching, subscriptions. */
const TRANSACTION_CONTROL = new Set(['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH']);

function guardrails(name: string, sub: string): GuardrailValue[] {
  if (name === 'FLUSHALL' || name === 'FLUSHDB') return ['drop', 'truncate'];
  if (name === 'DEL' || name === 'UNLINK' || name === 'GETDEL') return ['delete'];
  // Dropping every script or function (or one function library) removes server-side code, like DROP.
  if (
    (name === 'FUNCTION' && (sub === 'FLUSH' || sub === 'DELETE')) ||
    (name === 'SCRIPT' && sub === 'FLUSH')
  )
    return ['drop'];
  if (name === 'ACL' && !READ_SUBCOMMANDS.ACL.has(sub)) return ['grant'];
  return [];
}

/** One command's classification (the whole text is one statement: the executor runs it as one). */
export function classifyRedis(sql: string): ScriptClassification {
  const base = { index: 0, text: sql.trim(), objects: [], unplaceable: [], transactionControl: false };
  const parsed = parseRedisCommand(sql);
  let s: StatementClassification;
  if (!parsed.ok) {
    s = {
      ...base,
      kind: 'write',
      statementType: 'UNKNOWN',
      guardrails: [],
      doubtful: true,
      reason: parsed.reason,
    };
  } else {
    const { name, args } = parsed.command;
    const lower = name.toLowerCase();
    const sub = (args[0] ?? '').toUpperCase();
    const known = exists(lower);
    const read =
      known &&
      (hasFlag(lower, 'readonly') || HARMLESS.has(name) || (READ_SUBCOMMANDS[name]?.has(sub) ?? false));
    let keys: string[] = [];
    try {
      if (known) keys = getKeyIndexes(lower, args).map((i) => args[i]);
    } catch {
      keys = [];
    }
    s = {
      ...base,
      kind: read ? 'read' : 'write',
      statementType: read ? 'SELECT' : name === 'DEL' || name === 'UNLINK' ? 'DELETE' : 'OTHER',
      guardrails: guardrails(name, sub),
      objects: keys.map((k) => ({ name: k, access: read ? 'read' : 'write' })),
      transactionControl: TRANSACTION_CONTROL.has(name),
      doubtful: !known,
      ...(known ? {} : { reason: `unknown command ${name}: counted as a write` }),
    };
  }
  return {
    statements: [s],
    isWrite: s.kind === 'write',
    guardrails: s.guardrails,
    transactionControl: s.transactionControl,
  };
}
