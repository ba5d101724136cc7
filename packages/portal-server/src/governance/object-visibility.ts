// Object rules on the object surface: whether a catalog path names an object the datasource's `hidden`
// rules hide (lists leave it out, describe answers 404). Judged by the classifier's own object-rule check on
// a one-object read, so the surface and the statements agree on what is hidden.
import type { ObjectRules } from '../datasources/types.js';
import { objectRuleViolation, type ScriptClassification } from './classify/index.js';

/** True when `path` (containers then the name) is hidden by `rules`; administrators are not asked. */
export function isHiddenObject(rules: ObjectRules | undefined, path: readonly string[]): boolean {
  if (path.length === 0 || !rules || rules.hidden.length === 0) return false;
  const name = path[path.length - 1];
  const schema = path.length >= 2 ? path[path.length - 2] : undefined;
  const probe: ScriptClassification = {
    isWrite: false,
    guardrails: [],
    transactionControl: false,
    statements: [
      {
        index: 0,
        text: '',
        kind: 'read',
        statementType: 'SELECT',
        guardrails: [],
        objects: [{ ...(schema ? { schema } : {}), name, access: 'read' }],
        unplaceable: [],
        transactionControl: false,
        doubtful: false,
      },
    ],
  };
  return objectRuleViolation(probe, rules)?.kind === 'hidden';
}
