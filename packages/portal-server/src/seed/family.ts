// Which engine family a datasource belongs to, decided from its provider's SQL dialect rather than from
// engine ids: PostgreSQL-style and MySQL-style engines are the ones seed data and account provisioning
// speak. Shared by src/seed/ and src/provisioning/.
import type { ProviderRegistry } from '../providers/registry.js';
import type { SeedFamily } from './types.js';

export function engineFamily(registry: ProviderRegistry, type: string): SeedFamily | undefined {
  let dialect: string;
  try {
    dialect = registry.get(type).dialect;
  } catch {
    return undefined;
  }
  return dialect === 'postgres' || dialect === 'mysql' ? dialect : undefined;
}
