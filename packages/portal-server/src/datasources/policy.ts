// Reads loose policy keys (decisions.md "Datasource policy keys") into the one fully-defaulted shape
// (types.ts DatasourcePolicy), and gives a connection a user created its policy (no keys,
// guardrails in production). Managed datasources are validated at load (validate.ts) and need no
// second pass; this is for the user connection's default and for loose input, where an unexpected value falls
// back to the safe default.
import type { DatasourcePolicy, FreezeWindow, MaskingRule, ObjectRules } from './types.js';

/** Policy keys as they may arrive (all optional, loosely typed). */
export type PolicyInputPolicy = Record<string, unknown>;

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];

/**
 * The policy in force. `policy` undefined means a connection a user created: no server policy keys, but
 * guardrails hold when its environment is production (decisions.md "guardrail holds").
 */
export function normalizePolicy(
  policy: PolicyInputPolicy | undefined,
  ctx: { managed: boolean; environment?: string },
): DatasourcePolicy {
  if (!ctx.managed || !policy) {
    return {
      readOnly: false,
      writeApproval: false,
      approvalsRequired: 1,
      approverRoles: [],
      requireTicket: false,
      freezeWindows: [],
      guardrails: ctx.managed ? true : ctx.environment === 'production',
      masking: [],
      adminsRunUnverifiable: false,
    };
  }
  const p = policy;
  const out: DatasourcePolicy = {
    readOnly: p.readOnly === true,
    writeApproval: p.writeApproval === true,
    approvalsRequired: p.approvalsRequired === 2 ? 2 : 1,
    approverRoles: strings(p.approverRoles),
    requireTicket: p.requireTicket === true,
    freezeWindows: Array.isArray(p.freezeWindows)
      ? (p.freezeWindows as unknown[]).filter(
          (w): w is FreezeWindow =>
            typeof w === 'object' &&
            w !== null &&
            typeof (w as FreezeWindow).from === 'string' &&
            typeof (w as FreezeWindow).to === 'string',
        )
      : [],
    // Fail safe: anything but an explicit false keeps guardrails on.
    guardrails: p.guardrails !== false,
    adminsRunUnverifiable: p.adminsRunUnverifiable === true,
    masking: Array.isArray(p.masking)
      ? (p.masking as unknown[]).filter(
          (m): m is MaskingRule =>
            typeof m === 'object' &&
            m !== null &&
            typeof (m as MaskingRule).column === 'string' &&
            ['full', 'partial', 'hash'].includes((m as MaskingRule).rule),
        )
      : [],
  };
  const rules = p.objectRules as ObjectRules | undefined;
  if (rules && typeof rules === 'object') {
    out.objectRules = {
      hidden: strings(rules.hidden),
      ...(typeof rules.defaultSchema === 'string' && rules.defaultSchema !== ''
        ? { defaultSchema: rules.defaultSchema }
        : {}),
    };
  }
  if (typeof p.maxRows === 'number' && p.maxRows > 0) out.maxRows = Math.floor(p.maxRows);
  if (typeof p.maxConcurrent === 'number' && p.maxConcurrent > 0)
    out.maxConcurrent = Math.floor(p.maxConcurrent);
  if (typeof p.maxAffectedRows === 'number' && p.maxAffectedRows >= 0)
    out.maxAffectedRows = Math.floor(p.maxAffectedRows);
  if (Array.isArray(p.exportRoles)) out.exportRoles = strings(p.exportRoles);
  return out;
}
