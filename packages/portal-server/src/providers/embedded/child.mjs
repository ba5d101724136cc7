// Child process that owns one SQLite-family connection (better-sqlite3, or libsql's native driver for libSQL
// files). Both drivers are synchronous and neither can be interrupted from another thread, so a long statement
// runs here, where it blocks only this process, and the server enforces queryTimeout and cancel by killing the
// process (a worker thread cannot be stopped while it is inside native code).
// Plain JavaScript on purpose: it starts without the TypeScript loader.
const { driver, path, readonly } = JSON.parse(process.argv[2]);
const Database = (await import(driver === 'libsql' ? 'libsql' : 'better-sqlite3')).default;
let db;
let openError;
function open() {
  db = new Database(
    path,
    readonly && driver !== 'libsql' ? { readonly: true, fileMustExist: true } : { timeout: 5000 },
  );
  if (readonly && driver === 'libsql') db.exec('PRAGMA query_only = ON');
  if (!readonly) db.exec('PRAGMA foreign_keys = ON');
}
try {
  open();
} catch (err) {
  // Reported on the first request, so the caller gets the driver's message (a bad path, not a database).
  openError = err;
}

// Booleans are not SQLite values: bind them as 1/0 like SQLite's own TRUE/FALSE. A JS number binds as REAL in
// both drivers, so a safe integer (a JSON `42`) is bound as a BigInt, which both bind as INTEGER
// (providers/values.ts isIntegerParam says the same for the in-process drivers).
const bind = (params) =>
  (params ?? []).map((p) =>
    p === true ? 1 : p === false ? 0 : typeof p === 'number' && Number.isSafeInteger(p) ? BigInt(p) : p,
  );

let stream; // { iterator, fields, types }

function columnsOf(stmt) {
  const cols = stmt.columns();
  return { fields: cols.map((c) => c.name), types: cols.map((c) => c.type ?? '') };
}

function prepare(sql) {
  const stmt = db.prepare(sql);
  if (typeof stmt.safeIntegers === 'function') stmt.safeIntegers(true);
  return stmt;
}

const ops = {
  query({ sql, params, maxRows }) {
    const stmt = prepare(sql);
    if (stmt.reader) {
      stmt.raw(true);
      const { fields, types } = columnsOf(stmt);
      const rows = [];
      let truncated = false;
      for (const row of stmt.iterate(bind(params))) {
        if (rows.length >= maxRows) {
          truncated = true;
          break;
        }
        rows.push(row);
      }
      // libsql's iterator cannot be reset early and would hold its read lock; after an EXPLAIN its connection
      // keeps a read lock past later statements (a driver bug): reopen the connection in both cases.
      if (driver === 'libsql' && (truncated || /^\s*EXPLAIN\b/i.test(sql)) && !db.inTransaction) {
        db.close();
        open();
      }
      return { fields, types, rows, truncated };
    }
    const info = stmt.run(bind(params));
    return { fields: [], types: [], rows: [], truncated: false, changes: Number(info.changes) };
  },
  exec({ sql }) {
    db.exec(sql);
    return { inTransaction: db.inTransaction };
  },
  streamOpen({ sql, params }) {
    const stmt = prepare(sql);
    if (!stmt.reader)
      throw Object.assign(new Error('Only a statement that reads can be exported'), { code: 'NOT_A_READ' });
    if (stmt.readonly === false)
      throw Object.assign(new Error('Only a statement that only reads can be exported'), {
        code: 'NOT_A_READ',
      });
    stmt.raw(true);
    const cols = columnsOf(stmt);
    stream = { iterator: stmt.iterate(bind(params)), ...cols };
    return cols;
  },
  streamNext({ n }) {
    const rows = [];
    let done = false;
    while (rows.length < n) {
      const next = stream.iterator.next();
      if (next.done) {
        done = true;
        break;
      }
      rows.push(next.value);
    }
    return { rows, done };
  },
  streamClose() {
    stream?.iterator.return?.();
    stream = undefined;
    return {};
  },
  close() {
    db.close();
    return {};
  },
};

process.on('message', (msg) => {
  try {
    if (openError) throw openError;
    process.send({ id: msg.id, ok: true, result: ops[msg.op](msg) });
  } catch (err) {
    process.send({ id: msg.id, ok: false, error: { message: err?.message ?? String(err), code: err?.code } });
  }
});
// The server going away ends this process too.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
