// The Redis command allowlist (issue 27 "fail closed by allowlist"; docs/portal-classification.md): the
// commands known to read only, listed here by name rather than taken from the server's `readonly` flag (which
// PFCOUNT carries although it rewrites the HyperLogLog, and SORT_RO/EVAL_RO carry although they reach keys
// they do not name), the read forms that still reach unnamed keys (KEYS, SCAN, RANDOMKEY, SORT_RO … BY/GET,
// scripts), the writes and what each destroys (the guardrail it is held by), and the commands of the most
// dangerous class (scripts, server administration, anything unknown). The classifier
// (governance/classify/redis.ts) and the provider's read-only command filter both read this one table.

import { exists, hasFlag } from '@ioredis/commands';

const words = (s: string) => s.trim().split(/\s+/);

/** Commands that only read the keys they name. */
export const READ_COMMANDS: ReadonlySet<string> = new Set(
  words(`
  GET MGET STRLEN GETRANGE SUBSTR EXISTS TYPE TTL PTTL EXPIRETIME PEXPIRETIME LCS
  HGET HMGET HGETALL HKEYS HVALS HLEN HEXISTS HSTRLEN HRANDFIELD HSCAN HTTL HPTTL
  LRANGE LLEN LINDEX LPOS
  SMEMBERS SISMEMBER SMISMEMBER SCARD SRANDMEMBER SSCAN SINTER SUNION SDIFF SINTERCARD
  ZRANGE ZRANGEBYSCORE ZRANGEBYLEX ZREVRANGE ZREVRANGEBYSCORE ZREVRANGEBYLEX ZSCORE ZMSCORE ZCARD ZCOUNT
  ZLEXCOUNT ZRANK ZREVRANK ZSCAN ZRANDMEMBER ZINTER ZUNION ZDIFF ZINTERCARD
  XRANGE XREVRANGE XLEN XPENDING
  GETBIT BITCOUNT BITPOS BITFIELD_RO
  GEOPOS GEODIST GEOHASH GEOSEARCH GEORADIUS_RO GEORADIUSBYMEMBER_RO
  OBJECT MEMORY DUMP
  `),
);

/** Commands that touch no key and reveal no secret. */
export const HARMLESS_COMMANDS: ReadonlySet<string> = new Set(
  words('PING ECHO TIME LASTSAVE ROLE LOLWUT DBSIZE INFO'),
);

/** Read-only subcommands of container commands (any other subcommand is a write). */
export const READ_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  OBJECT: new Set(['ENCODING', 'FREQ', 'IDLETIME', 'REFCOUNT', 'HELP']),
  MEMORY: new Set(['USAGE', 'STATS', 'DOCTOR', 'HELP']),
  COMMAND: new Set(['COUNT', 'INFO', 'DOCS', 'LIST', 'GETKEYS', 'HELP']),
  CLIENT: new Set(['ID', 'GETNAME', 'INFO', 'HELP']),
  XINFO: new Set(['STREAM', 'GROUPS', 'CONSUMERS', 'HELP']),
  SLOWLOG: new Set(['LEN', 'HELP']),
  ACL: new Set(['WHOAMI', 'CAT', 'HELP']),
};

/** Reads that reach keys they do not name (every key matching a pattern, a random key, keys a script picks). */
export const UNNAMED_KEY_READS: ReadonlySet<string> = new Set(
  words('KEYS SCAN RANDOMKEY EVAL_RO EVALSHA_RO FCALL_RO SORT_RO'),
);

/**
 * The most dangerous class: scripts (their body can do anything), server administration and commands that
 * reveal credentials or move data off the server. Refused on read-only datasources, held elsewhere.
 */
export const UNVERIFIABLE_COMMANDS: Readonly<Record<string, string>> = {
  EVAL: 'runs a script',
  EVALSHA: 'runs a cached script',
  FCALL: 'runs a function library',
  SCRIPT: 'manages server scripts',
  FUNCTION: 'manages function libraries',
  CONFIG: 'reads or changes server configuration (CONFIG GET returns the requirepass credential)',
  DEBUG: 'server debugging (can crash or rewrite the server)',
  MODULE: 'loads server modules',
  MIGRATE: 'moves keys to another server',
  REPLICAOF: 'changes replication',
  SLAVEOF: 'changes replication',
  SHUTDOWN: 'stops the server',
  SAVE: 'writes the dataset to disk',
  BGSAVE: 'writes the dataset to disk',
  BGREWRITEAOF: 'rewrites the append-only file',
  FAILOVER: 'changes the primary',
  CLUSTER: 'cluster administration',
  ACL: 'reads or changes accounts (ACL LIST/GETUSER show password hashes)',
  CLIENT: 'manages other clients (CLIENT LIST shows their addresses and commands)',
  SLOWLOG: 'the slow log holds other sessions’ command arguments',
  MONITOR: 'streams every command of every client',
  LATENCY: 'server diagnostics that can be reset',
  PFDEBUG: 'rewrites a HyperLogLog',
  PFSELFTEST: 'server self test',
  SORT: 'can store its result and read keys named by patterns',
};

/** Writes that destroy or rewrite data, and the guardrails they are held by. */
export const WRITE_GUARDRAILS: Readonly<Record<string, readonly string[]>> = {
  // PFCOUNT caches the cardinality inside the HyperLogLog: it rewrites the key it reads.
  PFCOUNT: [],
  FLUSHALL: ['drop', 'truncate'],
  FLUSHDB: ['drop', 'truncate'],
  SWAPDB: ['drop', 'truncate'],
  DEL: ['delete'],
  UNLINK: ['delete'],
  GETDEL: ['delete'],
  // An expiry in the past (EXPIRE k 0, PEXPIREAT k 1, GETEX k PXAT 1) deletes the key at once.
  EXPIRE: ['delete'],
  PEXPIRE: ['delete'],
  EXPIREAT: ['delete'],
  PEXPIREAT: ['delete'],
  GETEX: ['delete'],
  HEXPIRE: ['delete'],
  HPEXPIRE: ['delete'],
  HEXPIREAT: ['delete'],
  HPEXPIREAT: ['delete'],
  // MOVE takes the key out of this database; RENAME and COPY … REPLACE overwrite their destination.
  MOVE: ['delete'],
  RENAME: ['delete'],
  RENAMENX: ['delete'],
  COPY: ['delete'],
  RESTORE: ['delete'],
  HDEL: ['delete'],
  LREM: ['delete'],
  LTRIM: ['delete'],
  SREM: ['delete'],
  ZREM: ['delete'],
  ZREMRANGEBYSCORE: ['delete'],
  ZREMRANGEBYRANK: ['delete'],
  ZREMRANGEBYLEX: ['delete'],
  XDEL: ['delete'],
  XTRIM: ['delete'],
  LPOP: ['delete'],
  RPOP: ['delete'],
  SPOP: ['delete'],
  ZPOPMIN: ['delete'],
  ZPOPMAX: ['delete'],
};

/** What the allowlist says about one command. */
export type CommandVerdict =
  | { kind: 'read'; unnamedKeys: boolean }
  | { kind: 'write'; guardrails: readonly string[] }
  | { kind: 'unverifiable'; reason: string };

/** Judges one command by the allowlist (name upper-case, arguments as sent). */
export function commandVerdict(name: string, args: readonly string[]): CommandVerdict {
  const sub = (args[0] ?? '').toUpperCase();
  const upperArgs = args.map((a) => a.toUpperCase());
  if (READ_SUBCOMMANDS[name]) {
    if (READ_SUBCOMMANDS[name].has(sub)) return { kind: 'read', unnamedKeys: false };
  }
  if (UNVERIFIABLE_COMMANDS[name]) return { kind: 'unverifiable', reason: UNVERIFIABLE_COMMANDS[name] };
  if (name === 'SORT_RO') {
    // BY and GET patterns read other keys (`SORT_RO k GET secret:*`).
    return { kind: 'read', unnamedKeys: true };
  }
  if (name === 'XREAD' && !upperArgs.includes('BLOCK')) return { kind: 'read', unnamedKeys: false };
  if (READ_COMMANDS.has(name) || HARMLESS_COMMANDS.has(name)) return { kind: 'read', unnamedKeys: false };
  if (UNNAMED_KEY_READS.has(name)) return { kind: 'read', unnamedKeys: true };
  // A known write (the server's command table flags it `write`); anything else cannot be verified.
  const lower = name.toLowerCase();
  if (WRITE_GUARDRAILS[name] || (exists(lower) && hasFlag(lower, 'write')))
    return { kind: 'write', guardrails: WRITE_GUARDRAILS[name] ?? [] };
  return { kind: 'unverifiable', reason: `${name} is not on the allowlist of known commands` };
}

/** Whether a command may run on a read-only datasource (the provider's command filter). */
export function isReadCommand(name: string, args: readonly string[]): boolean {
  return commandVerdict(name, args).kind === 'read';
}
