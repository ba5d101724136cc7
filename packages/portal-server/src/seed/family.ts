// Which engine family a datasource belongs to, decided from its provider's SQL dialect rather than from
// engine ids: PostgreSQL-style and MySQL-style engines are the ones seed data and account provisioning
// speak. Shared by src/seed/ and src/provisioning/, which resolve their datasource the same way.
import { HttpError } from '@app/kit';
import type { ManagedDatasource, ManagedEntry } from '../datasources/types.js';
import { engineFor } from '../providers/registry.js';
import type { ConnectionDescriptor } from '../providers/types.js';
import type { SeedFamily } from './types.js';

export function engineFamily(type: string): SeedFamily | undefined {
  let dialect: string;
  try {
    dialect = engineFor(type).dialect;
  } catch {
    return undefined;
  }
  return dialect === 'postgres' || dialect === 'mysql' ? dialect : undefined;
}

/** A managed datasource of one of the two families, with the descriptor its statements run on. */
export interface FamilyTarget {
  ds: ManagedDatasource;
  family: SeedFamily;
  descriptor: ConnectionDescriptor;
}

/**
 * The managed datasource `id` of a PostgreSQL- or MySQL-style engine, or the refusal: 404 unknown, 503
 * unavailable, 403 ENGINE_NOT_SUPPORTED (`unsupported` opens that message: which feature refuses). `label`
 * names the datasource in the messages (a copy source is "source datasource").
 */
export function familyTarget(
  datasources: { resolve(id: string): ManagedEntry | undefined },
  id: string,
  unsupported: string,
  label = 'datasource',
): FamilyTarget {
  const entry = datasources.resolve(id);
  if (!entry) throw new HttpError(404, `Unknown ${label} ${id}`, 'NOT_FOUND');
  if (!entry.available) {
    throw new HttpError(
      503,
      `The ${label} ${id} is unavailable: ${entry.datasource.reason}`,
      'DATASOURCE_UNAVAILABLE',
    );
  }
  const ds = entry.datasource;
  const family = engineFamily(ds.type);
  if (!family) throw new HttpError(403, `${unsupported}, not ${ds.type}`, 'ENGINE_NOT_SUPPORTED');
  return {
    ds,
    family,
    descriptor: { ...ds.connection, id: ds.id, name: ds.name, type: ds.type } as ConnectionDescriptor,
  };
}
