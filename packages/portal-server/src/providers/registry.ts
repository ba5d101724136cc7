// The engine registry: engine id → provider factory. Routes look capabilities and dialects up here and
// never branch on an engine id themselves.
import { duckdbFactory } from './duckdb/index.js';
import { configError } from './errors.js';
import { libsqlFactory } from './libsql/index.js';
import { mssqlFactory } from './mssql/index.js';
import { mysqlFactory } from './mysql/index.js';
import { oracleFactory } from './oracle/index.js';
import { postgresFactory } from './postgres/index.js';
import { sqliteFactory } from './sqlite/index.js';
import type { ProviderFactory } from './types.js';

export class ProviderRegistry {
  private readonly byId = new Map<string, ProviderFactory>();

  constructor(factories: ProviderFactory[]) {
    for (const f of factories) this.byId.set(f.engine, f);
  }

  get(type: unknown): ProviderFactory {
    const f = typeof type === 'string' ? this.byId.get(type) : undefined;
    if (!f) {
      throw configError(
        `Unsupported connection type ${JSON.stringify(type)}; supported: ${[...this.byId.keys()].join(', ')}`,
      );
    }
    return f;
  }

  engines(): string[] {
    return [...this.byId.keys()];
  }
}

export function defaultRegistry(): ProviderRegistry {
  return new ProviderRegistry([
    postgresFactory,
    mysqlFactory,
    sqliteFactory,
    libsqlFactory,
    duckdbFactory,
    mssqlFactory,
    oracleFactory,
  ]);
}
