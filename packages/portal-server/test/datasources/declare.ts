// A managed datasource as the registry loads it (datasources/types.ts), built from a test's loose definition:
// the engine taken from `connection.type`, every role unless told, the policy keys defaulted the one way the
// server reads them (datasources/policy.ts).
import { normalizePolicy } from '../../src/datasources/policy.js';
import type {
  EngineType,
  ManagedConnectionFields,
  ManagedDatasource,
  SessionRole,
} from '../../src/datasources/types.js';

export function declared(
  id: string,
  connection: Record<string, unknown>,
  policy: Record<string, unknown> = {},
  roles: SessionRole[] = ['admin', 'user'],
): ManagedDatasource {
  const { type, id: _id, name: _name, ...fields } = connection;
  return {
    id,
    name: id,
    type: type as EngineType,
    roles,
    connection: fields as ManagedConnectionFields,
    policy: normalizePolicy(policy, { managed: true }),
  };
}
