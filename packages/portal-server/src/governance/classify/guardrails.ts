// Guardrail ordering: every list the classifier returns is in GUARDRAIL_VALUES order (most specific first),
// and `firstGuardrail` names the one the 403 `APPROVAL_REQUIRED` answer and the approval record carry.
import { GUARDRAIL_VALUES, type GuardrailValue, type ScriptClassification } from './types.js';

export function orderGuardrails(values: Iterable<GuardrailValue>): GuardrailValue[] {
  const set = new Set(values);
  return GUARDRAIL_VALUES.filter((g) => set.has(g));
}

/** The guardrail of the first statement that has one (its most specific value, `except` aside), or undefined. */
export function firstGuardrail(
  result: ScriptClassification,
  except: readonly GuardrailValue[] = [],
): GuardrailValue | undefined {
  for (const st of result.statements) {
    const g = st.guardrails.find((v) => !except.includes(v));
    if (g) return g;
  }
  return undefined;
}
