// Classifies a command of the embedded key-value engine's grammar (providers/leveldb/command.ts): GET,
// PREFIX and RANGE read; PUT and DELETE write (DELETE holds the `delete` guardrail); text the grammar does
// not read fails closed as a doubtful write. The key named is the statement's object.
import { parseLevelCommand } from '../../providers/leveldb/command.js';
import type { ScriptClassification, StatementClassification } from './types.js';

export function classifyLevel(sql: string): ScriptClassification {
  const parsed = parseLevelCommand(sql);
  const base = { index: 0, text: sql.trim(), unplaceable: [], transactionControl: false };
  let s: StatementClassification;
  if (!parsed.ok) {
    s = {
      ...base,
      kind: 'write',
      statementType: 'UNKNOWN',
      guardrails: [],
      objects: [],
      doubtful: true,
      reason: parsed.reason,
    };
  } else {
    const c = parsed.command;
    const read = c.verb === 'GET' || c.verb === 'PREFIX' || c.verb === 'RANGE';
    const key = 'key' in c ? c.key : undefined;
    s = {
      ...base,
      kind: read ? 'read' : 'write',
      statementType: read ? 'SELECT' : c.verb === 'DELETE' ? 'DELETE' : 'INSERT',
      guardrails: c.verb === 'DELETE' ? ['delete'] : [],
      objects: key !== undefined ? [{ name: key, access: read ? 'read' : 'write' }] : [],
      doubtful: false,
    };
  }
  return {
    statements: [s],
    isWrite: s.kind === 'write',
    guardrails: s.guardrails,
    transactionControl: false,
  };
}
