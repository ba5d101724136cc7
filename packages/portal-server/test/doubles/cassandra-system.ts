// The system tables of the Cassandra test double (system.local, system.peers, system_views.clients,
// system_schema.keyspaces/tables/columns/indexes/views), computed from the evaluator's state on every read
// with the columns the driver's control connection and the portal's catalog select.
import type { Column, CqlState, Table } from './cassandra-cql.js';
import type { CqlType } from './cassandra-frames.js';

const T = (name: string): CqlType => ({ kind: 'native', name });
export function sysTable(
  keyspace: string,
  name: string,
  cols: Array<[string, CqlType]>,
  rows: Record<string, unknown>[],
): Table {
  const columns: Column[] = cols.map(([n, type], i) => ({
    name: n,
    type,
    kind: i === 0 ? 'partition_key' : 'regular',
  }));
  return { keyspace, name, columns, rows: new Map(rows.map((r, i) => [String(i), r])), indexes: [] };
}

export const HOST_ID = '2f2a4e1c-7d3b-4b8e-9c1d-0a1b2c3d4e5f';
export const SCHEMA_VERSION = '5d7b9f0e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

/** The system tables the driver and the portal read, computed from the state. */
export function systemTable(s: CqlState, keyspace: string, name: string): Table | undefined {
  const user = [...s.tables.values()];
  switch (`${keyspace}.${name}`) {
    case 'system.local':
      return sysTable(
        keyspace,
        name,
        [
          ['key', T('text')],
          ['bootstrapped', T('text')],
          ['cluster_name', T('text')],
          ['cql_version', T('text')],
          ['data_center', T('text')],
          ['host_id', T('uuid')],
          ['native_protocol_version', T('text')],
          ['partitioner', T('text')],
          ['rack', T('text')],
          ['release_version', T('text')],
          ['schema_version', T('uuid')],
          ['tokens', { kind: 'set', of: T('text') }],
        ],
        [
          {
            key: 'local',
            bootstrapped: 'COMPLETED',
            cluster_name: 'Test Cluster',
            cql_version: '3.4.6',
            data_center: 'dc1',
            host_id: HOST_ID,
            native_protocol_version: '4',
            partitioner: 'org.apache.cassandra.dht.Murmur3Partitioner',
            rack: 'rack1',
            release_version: '4.1.5',
            schema_version: SCHEMA_VERSION,
            tokens: ['0'],
          },
        ],
      );
    case 'system.peers':
      return sysTable(
        keyspace,
        name,
        [
          ['peer', T('inet')],
          ['data_center', T('text')],
          ['host_id', T('uuid')],
          ['rack', T('text')],
          ['release_version', T('text')],
          ['rpc_address', T('inet')],
          ['schema_version', T('uuid')],
          ['tokens', { kind: 'set', of: T('text') }],
        ],
        [],
      );
    case 'system_views.clients':
      return sysTable(
        keyspace,
        name,
        [
          ['address', T('inet')],
          ['port', T('int')],
          ['username', T('text')],
          ['connection_stage', T('text')],
          ['protocol_version', T('int')],
          ['driver_name', T('text')],
          ['request_count', T('bigint')],
        ],
        s.clients.map((c) => ({
          address: c.address,
          port: c.port,
          username: c.username,
          connection_stage: 'ready',
          protocol_version: 4,
          driver_name: 'DataStax Node.js Driver',
          request_count: 1n,
        })),
      );
    case 'system_schema.keyspaces':
      return sysTable(
        keyspace,
        name,
        [
          ['keyspace_name', T('text')],
          ['durable_writes', T('boolean')],
          ['replication', { kind: 'map', key: T('text'), value: T('text') }],
        ],
        [...s.keyspaces].map((k) => ({
          keyspace_name: k,
          durable_writes: true,
          replication: { class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: '1' },
        })),
      );
    case 'system_schema.tables':
      return sysTable(
        keyspace,
        name,
        [
          ['keyspace_name', T('text')],
          ['table_name', T('text')],
          ['comment', T('text')],
        ],
        user.map((t) => ({ keyspace_name: t.keyspace, table_name: t.name, comment: '' })),
      );
    case 'system_schema.columns':
      return sysTable(
        keyspace,
        name,
        [
          ['keyspace_name', T('text')],
          ['table_name', T('text')],
          ['column_name', T('text')],
          ['clustering_order', T('text')],
          ['kind', T('text')],
          ['position', T('int')],
          ['type', T('text')],
        ],
        user.flatMap((t) =>
          t.columns.map((c) => ({
            keyspace_name: t.keyspace,
            table_name: t.name,
            column_name: c.name,
            clustering_order: c.kind === 'clustering' ? 'asc' : 'none',
            kind: c.kind,
            position: c.kind === 'regular' ? -1 : t.columns.filter((x) => x.kind === c.kind).indexOf(c),
            type: typeName(c.type),
          })),
        ),
      );
    case 'system_schema.indexes':
      return sysTable(
        keyspace,
        name,
        [
          ['keyspace_name', T('text')],
          ['table_name', T('text')],
          ['index_name', T('text')],
          ['kind', T('text')],
          ['options', { kind: 'map', key: T('text'), value: T('text') }],
        ],
        user.flatMap((t) =>
          t.indexes.map((i) => ({
            keyspace_name: t.keyspace,
            table_name: t.name,
            index_name: i.name,
            kind: 'COMPOSITES',
            options: { target: i.target },
          })),
        ),
      );
    case 'system_schema.views':
      return sysTable(
        keyspace,
        name,
        [
          ['keyspace_name', T('text')],
          ['view_name', T('text')],
          ['base_table_name', T('text')],
          ['where_clause', T('text')],
          ['include_all_columns', T('boolean')],
        ],
        s.views.map((v) => ({
          keyspace_name: v.keyspace,
          view_name: v.name,
          base_table_name: v.base,
          where_clause: v.where,
          include_all_columns: true,
        })),
      );
    default:
      return undefined;
  }
}

function typeName(t: CqlType): string {
  if (t.kind === 'native') return t.name;
  if (t.kind === 'map') return `map<${typeName(t.key)}, ${typeName(t.value)}>`;
  return `${t.kind}<${typeName(t.of)}>`;
}
