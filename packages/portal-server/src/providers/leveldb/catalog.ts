// The LevelDB catalog: the whole key space is one object `["main", "keys"]` (LevelDB has no tables); health
// and monitoring read the folder's size on disk and the provider's running commands.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Catalog, noMaintenance } from '../catalog.js';
import type { ConnectionProfile, HealthReading } from '../types.js';
import { prettyBytes } from '../values.js';

function folderSize(path: string): number {
  let total = 0;
  for (const name of readdirSync(path)) {
    const s = statSync(join(path, name));
    total += s.isDirectory() ? folderSize(join(path, name)) : s.size;
  }
  return total;
}

export class LevelCatalog implements Catalog {
  constructor(
    private readonly path: string,
    private readonly running: () => number,
  ) {}

  async profile(): Promise<ConnectionProfile> {
    return { engine: 'leveldb', serverVersion: 'LevelDB (classic-level 3)', currentDatabase: 'main' };
  }

  async health(): Promise<HealthReading> {
    return {
      activeConnections: 1,
      databaseSize: prettyBytes(folderSize(this.path)),
      cacheHitRatio: 'n/a',
      slowQueries: [],
      activeSessions: [],
    };
  }

  async monitoring(): Promise<Record<string, unknown>> {
    return { sizeBytes: folderSize(this.path), runningCommands: this.running() };
  }

  maintenance = noMaintenance('LevelDB');

  /** The whole key space is one object `["main", "keys"]` (LevelDB has no tables). */
  private keyspace() {
    return { path: ['main', 'keys'], name: 'keys', kind: 'keyspace' };
  }
  async listObjects(path: readonly string[] | undefined) {
    return path && path.length > 0 && path[0] !== 'main' ? [] : [this.keyspace()];
  }
  async inventory() {
    return {
      containers: [{ path: ['main'], name: 'main', kind: 'database' }],
      objects: [this.keyspace()],
      truncated: false,
    };
  }
  async counts() {
    return [{ path: ['main'], kind: 'keyspace', count: 1 }];
  }
  async describe(path: readonly string[]) {
    if (path.length !== 2 || path[0] !== 'main' || path[1] !== 'keys') return undefined;
    return {
      object: this.keyspace(),
      columns: [
        { name: 'key', type: 'string', nullable: false, isPrimary: true },
        { name: 'value', type: 'string', nullable: false, isPrimary: false },
      ],
      indexes: [],
      foreignKeys: [],
    };
  }
}
