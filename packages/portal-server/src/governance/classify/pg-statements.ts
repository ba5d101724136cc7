// Statement-level facts for each libpg-query statement node: its type, whether it is a read before the tree
// walk finds writes inside it, its own guardrails, transaction control and unplaceable reach. Node types not
// listed here are writes: a statement is only a read when it is known to be one.
import { unplaceableEntry } from './objects.js';
import type { Access, GuardrailValue, StatementType } from './types.js';

type Node = Record<string, any>;

export interface PgStatementInfo {
  statementType: StatementType;
  kind: Access;
  guardrails: GuardrailValue[];
  transactionControl: boolean;
  changesResolution?: boolean;
  dynamic?: boolean;
  unplaceable?: string;
}

const info = (
  statementType: StatementType,
  kind: Access,
  extra: Partial<PgStatementInfo> = {},
): PgStatementInfo => ({
  statementType,
  kind,
  guardrails: [],
  transactionControl: false,
  ...extra,
});

/** Privilege and role statements (guardrail `grant`). */
const GRANT_TYPES: Record<string, StatementType> = {
  CreateRoleStmt: 'CREATE',
  AlterRoleStmt: 'ALTER',
  AlterRoleSetStmt: 'ALTER',
  AlterDefaultPrivilegesStmt: 'GRANT',
  AlterOwnerStmt: 'ALTER',
  ReassignOwnedStmt: 'ALTER',
  CreatePolicyStmt: 'CREATE',
  AlterPolicyStmt: 'ALTER',
  CreateUserMappingStmt: 'CREATE',
  AlterUserMappingStmt: 'ALTER',
};

const OTHER_WRITES: Record<string, StatementType> = {
  ViewStmt: 'CREATE',
  IndexStmt: 'CREATE',
  DefineStmt: 'CREATE',
  RuleStmt: 'CREATE',
  CompositeTypeStmt: 'CREATE',
  CreateTableAsStmt: 'CREATE',
  RenameStmt: 'ALTER',
  CommentStmt: 'ALTER',
  SecLabelStmt: 'ALTER',
  LockStmt: 'LOCK',
  DeallocateStmt: 'OTHER',
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
};

const SCHEMA_WIDE = 'reaches every object of the database';

export function pgStatementInfo(type: string, node: Node): PgStatementInfo {
  switch (type) {
    case 'SelectStmt':
      return info('SELECT', 'read');
    case 'ExplainStmt':
      return info('EXPLAIN', 'read');
    case 'VariableShowStmt':
      return info('SHOW', 'read');
    case 'DeclareCursorStmt':
      return info('SELECT', 'read');
    case 'FetchStmt':
    case 'ClosePortalStmt':
      return info('OTHER', 'read');
    case 'TransactionStmt':
      return info('TRANSACTION', 'read', { transactionControl: true });
    case 'VariableSetStmt':
      return variableSet(node);
    case 'CopyStmt':
      // COPY … TO STDOUT reads; FROM, TO a server file and TO PROGRAM write (or run a program).
      // A file or a program is beyond what the classifier can verify.
      return info('COPY', node.is_from || node.is_program || node.filename ? 'write' : 'read', {
        guardrails: node.is_program || node.filename ? ['unverifiable'] : [],
      });
    case 'PrepareStmt':
      return info('PREPARE', 'write');
    case 'ExecuteStmt':
      return info('EXECUTE', 'write', {
        unplaceable: unplaceableEntry(`EXECUTE ${node.name}`, 'runs a prepared statement'),
      });
    case 'DoStmt':
      return info('DO', 'write', {
        dynamic: true,
        unplaceable: unplaceableEntry('DO', 'an anonymous code block'),
      });
    case 'CallStmt': {
      const names = (node.funccall?.funcname as Node[] | undefined) ?? [];
      const name = names.map((n) => n.String?.sval).join('.');
      return info('CALL', 'write', {
        unplaceable: unplaceableEntry(`CALL ${name}`, "a procedure's reach cannot be read"),
      });
    }
    case 'VacuumStmt':
      return info(node.is_vacuumcmd ? 'VACUUM' : 'ANALYZE', 'write', {
        unplaceable: node.rels ? undefined : unplaceableEntry('*', SCHEMA_WIDE),
      });
    case 'ClusterStmt':
    case 'ReindexStmt':
      return info('OTHER', 'write', {
        unplaceable: node.relation ? undefined : unplaceableEntry('*', SCHEMA_WIDE),
      });
    case 'TruncateStmt':
      return info('TRUNCATE', 'write', { guardrails: ['truncate'] });
    case 'GrantStmt':
    case 'GrantRoleStmt':
      return info(node.is_grant ? 'GRANT' : 'REVOKE', 'write', { guardrails: ['grant'] });
    case 'DropRoleStmt':
    case 'DropUserMappingStmt':
      return info('DROP', 'write', { guardrails: ['grant', 'drop'] });
    case 'DropOwnedStmt':
      return info('DROP', 'write', {
        guardrails: ['grant', 'drop'],
        unplaceable: unplaceableEntry('*', SCHEMA_WIDE),
      });
    case 'DropdbStmt':
      return info('DROP', 'write', {
        guardrails: ['drop'],
        unplaceable: unplaceableEntry(String(node.dbname), 'drops a whole database'),
      });
    case 'LoadStmt':
      return info('OTHER', 'write', { unplaceable: unplaceableEntry('LOAD', 'loads server code') });
  }
  if (GRANT_TYPES[type]) {
    const unplaceable =
      type === 'AlterDefaultPrivilegesStmt' && !schemasOption(node)
        ? unplaceableEntry('*', 'default privileges for every schema')
        : type === 'ReassignOwnedStmt'
          ? unplaceableEntry('*', SCHEMA_WIDE)
          : undefined;
    return info(GRANT_TYPES[type], 'write', { guardrails: ['grant'], unplaceable });
  }
  if (OTHER_WRITES[type]) return info(OTHER_WRITES[type], 'write');
  if (type.startsWith('Drop')) return info('DROP', 'write', { guardrails: ['drop'] });
  if (type.startsWith('Create')) return info('CREATE', 'write');
  if (type.startsWith('Alter')) return info('ALTER', 'write');
  return info('OTHER', 'write');
}

function schemasOption(node: Node): boolean {
  return ((node.options as Node[] | undefined) ?? []).some((o) => o.DefElem?.defname === 'schemas');
}

function variableSet(node: Node): PgStatementInfo {
  const name = String(node.name ?? '').toLowerCase();
  if (node.kind === 'VAR_SET_MULTI' && name === 'transaction') {
    return info('TRANSACTION', 'read', { transactionControl: true });
  }
  if (name === 'role' || name === 'session_authorization' || (node.kind === 'VAR_RESET_ALL' && !name)) {
    return info('SET', 'write', { guardrails: ['grant'], changesResolution: node.kind === 'VAR_RESET_ALL' });
  }
  // Session changes are writes; search_path also changes what later unqualified names mean.
  return info('SET', 'write', { changesResolution: name === 'search_path' });
}
