// Functions whose call changes state (sequences, locks, large objects, backends, configuration) or runs SQL
// held in a string, across the engines. A SELECT calling one of them is a write; one running dynamic SQL
// also reaches objects the server cannot place. Names are compared lower-case, without schema.

const WRITE_FUNCTIONS = new Set([
  // PostgreSQL
  'nextval',
  'setval',
  'set_config',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_switch_wal',
  'pg_create_restore_point',
  'pg_promote',
  'pg_notify',
  'pg_logical_emit_message',
  'pg_file_write',
  'pg_file_rename',
  'pg_file_unlink',
  'lo_import',
  'lo_export',
  'lo_unlink',
  'lo_create',
  'lo_creat',
  'lo_put',
  'lo_from_bytea',
  'lo_truncate',
  'lo_truncate64',
  'lowrite',
  'lo_open',
  'pg_import_system_collations',
  'txid_current',
  'pg_current_xact_id',
  // MySQL / MariaDB
  'get_lock',
  'release_lock',
  'release_all_locks',
  'lastval',
  // SQLite
  'load_extension',
  'writefile',
]);

const WRITE_PREFIXES = [
  'pg_advisory_',
  'pg_try_advisory_',
  'pg_stat_reset',
  'pg_create_',
  'pg_drop_',
  'pg_replication_origin_',
  'pg_replication_slot_',
  'pg_copy_',
  'pg_wal_replay_',
  'pg_backup_',
  'pg_start_backup',
  'pg_stop_backup',
];

/** Functions that run SQL text (or read a relation named in a string). */
const DYNAMIC_FUNCTIONS = new Set([
  'dblink',
  'dblink_exec',
  'dblink_open',
  'dblink_fetch',
  'dblink_send_query',
  'dblink_connect',
  'dblink_connect_u',
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'table_to_xml',
  'table_to_xmlschema',
  'table_to_xml_and_xmlschema',
  'cursor_to_xml',
  'schema_to_xml',
  'schema_to_xml_and_xmlschema',
  'database_to_xml',
  'database_to_xml_and_xmlschema',
  'openrowset',
  'openquery',
  'opendatasource',
  'sys_exec',
  'sys_eval',
]);

export function functionEffect(name: string): 'write' | 'dynamic' | undefined {
  const n = name.toLowerCase();
  if (DYNAMIC_FUNCTIONS.has(n)) return 'dynamic';
  if (WRITE_FUNCTIONS.has(n) || WRITE_PREFIXES.some((p) => n.startsWith(p))) return 'write';
  return undefined;
}
