// DDL of the Cassandra test double's CQL evaluator: CREATE KEYSPACE/TABLE/INDEX (ROLE/USER refused as
// unauthorised) and DROP KEYSPACE/TABLE, answering SCHEMA_CHANGE outcomes as the server does.
import { type Column, CqlError, type Outcome, type Parser } from './cassandra-cql.js';
import { type CqlType, ERR, parseType } from './cassandra-frames.js';

export function createStatement(p: Parser): Outcome {
  p.expect('CREATE');
  if (p.accept('KEYSPACE')) {
    const ine = ifNotExists(p);
    const ks = p.ident();
    while (p.peek()) p.take();
    if (p.s.keyspaces.has(ks)) {
      if (ine) return { kind: 'void' };
      throw new CqlError(ERR.ALREADY_EXISTS, `Keyspace ${ks} already exists`);
    }
    p.s.keyspaces.add(ks);
    return { kind: 'schema', change: 'CREATED', target: 'KEYSPACE', keyspace: ks };
  }
  if (p.accept('INDEX')) {
    ifNotExists(p);
    const name = p.ident();
    p.expect('ON');
    const q = p.qualified();
    p.expect('(');
    const target = p.ident();
    p.expect(')');
    p.s.table(q.keyspace, q.name).indexes.push({ name, target });
    return { kind: 'schema', change: 'UPDATED', target: 'TABLE', keyspace: q.keyspace, name: q.name };
  }
  if (p.word() === 'ROLE' || p.word() === 'USER')
    throw new CqlError(
      ERR.UNAUTHORIZED,
      'User portal does not have sufficient privileges to perform the requested operation',
    );
  p.expect('TABLE');
  const ine = ifNotExists(p);
  const q = p.qualified();
  if (!p.s.keyspaces.has(q.keyspace)) throw new CqlError(ERR.INVALID, `Keyspace ${q.keyspace} doesn't exist`);
  if (p.s.tables.has(`${q.keyspace}.${q.name}`)) {
    if (ine) return { kind: 'void' };
    throw new CqlError(ERR.ALREADY_EXISTS, `Table ${q.keyspace}.${q.name} already exists`);
  }
  p.expect('(');
  const cols: Column[] = [];
  let partition: string[] = [];
  let clustering: string[] = [];
  do {
    if (p.accept('PRIMARY')) {
      p.expect('KEY');
      p.expect('(');
      if (p.accept('(')) {
        do partition.push(p.ident());
        while (p.accept(','));
        p.expect(')');
      } else partition = [p.ident()];
      while (p.accept(',')) clustering.push(p.ident());
      p.expect(')');
      continue;
    }
    const name = p.ident();
    let typeText = '';
    let depth = 0;
    while (
      p.peek() &&
      (depth > 0 || (p.peek()?.v !== ',' && p.peek()?.v !== ')' && p.word() !== 'PRIMARY'))
    ) {
      const t = p.take();
      if (t.v === '<') depth++;
      if (t.v === '>') depth--;
      typeText += t.v;
    }
    let type: CqlType;
    try {
      type = parseType(typeText);
    } catch {
      throw new CqlError(ERR.SYNTAX, `Unknown type ${typeText}`);
    }
    if (p.accept('PRIMARY')) {
      p.expect('KEY');
      partition = [name];
      clustering = [];
    }
    cols.push({ name, type, kind: 'regular' });
  } while (p.accept(','));
  p.expect(')');
  while (p.peek() && p.peek()?.v !== ';') p.take();
  if (partition.length === 0)
    throw new CqlError(ERR.INVALID, 'No PRIMARY KEY specifed (exactly one required)');
  for (const c of cols) {
    if (partition.includes(c.name)) c.kind = 'partition_key';
    else if (clustering.includes(c.name)) c.kind = 'clustering';
  }
  p.s.tables.set(`${q.keyspace}.${q.name}`, {
    keyspace: q.keyspace,
    name: q.name,
    columns: cols,
    rows: new Map(),
    indexes: [],
  });
  return { kind: 'schema', change: 'CREATED', target: 'TABLE', keyspace: q.keyspace, name: q.name };
}

function ifNotExists(p: Parser): boolean {
  if (!p.accept('IF')) return false;
  p.expect('NOT');
  p.expect('EXISTS');
  return true;
}

function ifExists(p: Parser): boolean {
  if (!p.accept('IF')) return false;
  p.expect('EXISTS');
  return true;
}

export function dropStatement(p: Parser): Outcome {
  p.expect('DROP');
  if (p.accept('KEYSPACE')) {
    const ie = ifExists(p);
    const ks = p.ident();
    if (!p.s.keyspaces.has(ks)) {
      if (ie) return { kind: 'void' };
      throw new CqlError(ERR.INVALID, `Keyspace '${ks}' doesn't exist`);
    }
    p.s.keyspaces.delete(ks);
    for (const k of [...p.s.tables.keys()]) if (k.startsWith(`${ks}.`)) p.s.tables.delete(k);
    return { kind: 'schema', change: 'DROPPED', target: 'KEYSPACE', keyspace: ks };
  }
  p.expect('TABLE');
  const ie = ifExists(p);
  const q = p.qualified();
  if (!p.s.tables.delete(`${q.keyspace}.${q.name}`)) {
    if (ie) return { kind: 'void' };
    throw new CqlError(ERR.INVALID, `Table '${q.keyspace}.${q.name}' doesn't exist`);
  }
  return { kind: 'schema', change: 'DROPPED', target: 'TABLE', keyspace: q.keyspace, name: q.name };
}
