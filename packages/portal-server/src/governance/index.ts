// The governance layer assembled (DESIGN §2 src/governance): the approval service over the store, the
// concurrency limiter, the masking key and the hooks the session routes call. server.ts builds one and
// hands its parts to the routes and to the bot API. Re-exports what other features use.
import { deriveKey } from '@app/kit';
import type { ManagedDatasources } from '../datasources/registry.js';
import type { AuditSink } from '../execution/contracts.js';
import type { ApprovalRepository } from '../storage/approvals.js';
import { type ApprovalDirectory, type ApprovalPolicyView, ApprovalService } from './approvals.js';
import { ConcurrencyLimiter } from './concurrency.js';
import { PolicyHooks } from './session-governance.js';

export { normalizePolicy } from '../datasources/policy.js';
export * from './approvals.js';
export { ConcurrencyLimiter, type Release } from './concurrency.js';
export { decide, maskedPredicateRefusal, type Verdict } from './decide.js';
export { mayExport } from './export-rules.js';
export {
  applicableRules,
  MASK_FULL,
  maskValue,
  mentionsMasked,
  StatementMasker,
  statementMasker,
} from './masking.js';
export * from './policy.js';
export { readOnlyIsCheap, readOnlyMode, readOnlyProvider } from './read-only.js';
export { classifyRequest, policyDatasource } from './request.js';
export { PolicyHooks } from './session-governance.js';

/** The approval rules of the managed datasources (a connection a user created falls back to administrators). */
export function directoryOf(datasources: ManagedDatasources): ApprovalDirectory {
  const view = (id: string): ApprovalPolicyView | undefined => {
    const ds = datasources.getManaged(id);
    if (!ds) return undefined;
    return {
      id: ds.id,
      name: ds.name,
      approvalsRequired: ds.policy.approvalsRequired,
      approverRoles: ds.policy.approverRoles,
    };
  };
  return {
    get: view,
    list: () =>
      datasources
        .all()
        .map((e) => view(e.datasource.id))
        .filter((v): v is ApprovalPolicyView => v !== undefined),
  };
}

export interface Governance {
  hooks: PolicyHooks;
  approvals: ApprovalService;
  concurrency: ConcurrencyLimiter;
  /** Starts the expiry timer of pending approvals. */
  start(): void;
  stop(): void;
}

export function createGovernance(options: {
  approvals: ApprovalRepository | undefined;
  approvalTtlHours: number;
  datasources: ManagedDatasources;
  audit: AuditSink;
  /** Server secret the masking key is derived from (JWT_SECRET). */
  secret: string;
  log?: { error(obj: object, msg: string): void };
  now?: () => Date;
}): Governance {
  const approvals = new ApprovalService({
    repository: options.approvals,
    ttlHours: options.approvalTtlHours,
    directory: directoryOf(options.datasources),
    audit: options.audit,
    log: options.log,
    now: options.now,
  });
  const concurrency = new ConcurrencyLimiter();
  const maskingKey = deriveKey(options.secret, 'portal-masking');
  const hooks = new PolicyHooks({
    approvals,
    concurrency,
    audit: options.audit,
    maskingKey,
    now: options.now,
  });
  return {
    hooks,
    approvals,
    concurrency,
    start: () => approvals.start(),
    stop: () => approvals.stop(),
  };
}
