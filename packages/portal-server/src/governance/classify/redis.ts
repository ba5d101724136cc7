// Classifies a Redis command (the key-value engine has no SQL grammar) by the engine's command allowlist
// (providers/redis/commands.ts), failing closed: a command listed as a read reads the keys it names; a read
// that reaches keys it does not name (KEYS, SCAN, RANDOMKEY, SORT_RO … GET, EVAL_RO/FCALL_RO scripts) reaches
// every key (`*`), which object rules refuse; a known write is held by the guardrail of what it destroys
// (DEL, EXPIRE, MOVE, SWAPDB, FLUSHALL …); scripts, server administration, credential-revealing commands
// (CONFIG GET) and anything unknown are doubtful writes of the most dangerous class. Keys named by the
// command are its objects.
import { exists, getKeyIndexes } from '@ioredis/commands';
import { parseRedisCommand } from '../../providers/redis/command.js';
import { commandVerdict } from '../../providers/redis/commands.js';
import { orderGuardrails } from './guardrails.js';
import { CANNOT_VERIFY } from './token-allowlist.js';
import {
  GUARDRAIL_VALUES,
  type GuardrailValue,
  type ObjectRef,
  type ScriptClassification,
  type StatementClassification,
} from './types.js';

/** Commands that change the connection itself: transaction blocks, database switching, subscriptions. */
const TRANSACTION_CONTROL = new Set(['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH']);

const isGuardrail = (g: string): g is GuardrailValue => (GUARDRAIL_VALUES as readonly string[]).includes(g);

/** One command's classification (the whole text is one statement: the executor runs it as one). */
export function classifyRedis(sql: string): ScriptClassification {
  const base = { index: 0, text: sql.trim(), unplaceable: [] as string[], transactionControl: false };
  const parsed = parseRedisCommand(sql);
  let s: StatementClassification;
  if (!parsed.ok) {
    s = {
      ...base,
      objects: [],
      kind: 'write',
      statementType: 'UNKNOWN',
      guardrails: [],
      doubtful: true,
      reason: parsed.reason,
    };
  } else {
    const { name, args } = parsed.command;
    const lower = name.toLowerCase();
    const verdict = commandVerdict(name, args);
    let keys: string[] = [];
    try {
      if (exists(lower)) keys = getKeyIndexes(lower, args).map((i) => args[i]);
    } catch {
      keys = [];
    }
    const read = verdict.kind === 'read';
    const objects: ObjectRef[] = keys.map((k) => ({ name: k, access: read ? 'read' : 'write' }));
    if (verdict.kind === 'read' && verdict.unnamedKeys) objects.push({ name: '*', access: 'read' });
    const unplaceable = verdict.kind === 'unverifiable' ? [`${name}: ${verdict.reason}`] : ([] as string[]);
    const guardrails =
      verdict.kind === 'write'
        ? verdict.guardrails.filter(isGuardrail)
        : verdict.kind === 'unverifiable'
          ? [...CANNOT_VERIFY, ...(name === 'ACL' ? (['grant'] as const) : [])]
          : [];
    s = {
      ...base,
      kind: read ? 'read' : 'write',
      statementType: read ? 'SELECT' : name === 'DEL' || name === 'UNLINK' ? 'DELETE' : 'OTHER',
      guardrails: orderGuardrails(new Set(guardrails)),
      objects,
      unplaceable,
      transactionControl: TRANSACTION_CONTROL.has(name),
      doubtful: verdict.kind === 'unverifiable',
      ...(verdict.kind === 'unverifiable'
        ? { reason: `${name}: ${verdict.reason}; counted as a write` }
        : {}),
      ...(verdict.kind === 'read' && verdict.unnamedKeys ? { opaqueOutput: true } : {}),
    };
  }
  return {
    statements: [s],
    isWrite: s.kind === 'write',
    guardrails: s.guardrails,
    transactionControl: s.transactionControl,
  };
}
