// Reads the `sql` field of a MongoDB datasource: one JSON object {collection, operation, filter, pipeline,
// update, documents, options, field} (database-portal.md, "Engine-specific behaviour of the `sql` field").
// Values are MongoDB Extended JSON ({"$oid": …}, {"$date": …}, {"$numberLong": …}) read by the driver's own
// `bson` package. Both the provider (to run it) and the classifier (to judge it) read the text with this one
// function, so they cannot disagree; for the same reason a duplicated key anywhere in the text is refused
// (JSON.parse keeps the last one, another reader might keep the first) and so is a `__proto__` key. Each
// operation accepts only its own fields and options: an unknown field is an error, never ignored.
import { EJSON } from 'bson';

export const READ_OPERATIONS = ['find', 'findOne', 'aggregate', 'count', 'distinct'] as const;
export const WRITE_OPERATIONS = [
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
] as const;
export type MongoOperation = (typeof READ_OPERATIONS)[number] | (typeof WRITE_OPERATIONS)[number];

export type Doc = Record<string, unknown>;

export interface MongoRequest {
  collection: string;
  operation: MongoOperation;
  filter: Doc;
  pipeline: Doc[];
  update?: Doc | Doc[];
  documents: Doc[];
  options: Doc;
  field?: string;
}

export type ParsedRequest =
  | { ok: true; request: MongoRequest }
  | { ok: false; reason: string; operation?: string };

/** The request fields each operation takes (besides `collection` and `operation`). */
const FIELDS: Record<MongoOperation, readonly string[]> = {
  find: ['filter', 'options'],
  findOne: ['filter', 'options'],
  aggregate: ['pipeline', 'options'],
  count: ['filter', 'options'],
  distinct: ['field', 'filter', 'options'],
  insertOne: ['documents', 'options'],
  insertMany: ['documents', 'options'],
  updateOne: ['filter', 'update', 'options'],
  updateMany: ['filter', 'update', 'options'],
  deleteOne: ['filter', 'options'],
  deleteMany: ['filter', 'options'],
};

/** The driver options each operation accepts. */
const OPTIONS: Record<MongoOperation, readonly string[]> = {
  find: ['sort', 'projection', 'skip', 'limit', 'hint', 'collation', 'comment', 'min', 'max'],
  findOne: ['sort', 'projection', 'skip', 'hint', 'collation', 'comment'],
  aggregate: ['allowDiskUse', 'collation', 'hint', 'let', 'comment'],
  count: ['skip', 'limit', 'hint', 'collation', 'comment'],
  distinct: ['collation', 'comment'],
  insertOne: ['comment'],
  insertMany: ['ordered', 'comment'],
  updateOne: ['upsert', 'arrayFilters', 'collation', 'hint', 'let', 'comment'],
  updateMany: ['upsert', 'arrayFilters', 'collation', 'hint', 'let', 'comment'],
  deleteOne: ['collation', 'hint', 'let', 'comment'],
  deleteMany: ['collation', 'hint', 'let', 'comment'],
};

/** Why already-valid JSON `text` repeats a key within one object (or holds `__proto__`), or undefined. */
export function duplicateKeyProblem(text: string): string | undefined {
  const stack: Array<{ object: boolean; keys: Set<string>; expectKey: boolean }> = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.object && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (key === '__proto__') return 'the key __proto__ is not accepted';
        if (top.keys.has(key)) return `the key ${JSON.stringify(key)} appears twice in one object`;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') stack.push({ object: c === '{', keys: new Set(), expectKey: c === '{' });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top?.object) top.expectKey = true;
    i++;
  }
  return undefined;
}

function isDoc(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads one request, or says why it cannot be run. */
export function parseMongoRequest(text: string): ParsedRequest {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{'))
    return { ok: false, reason: 'the request must be a JSON object {collection, operation, …}' };
  let raw: unknown;
  try {
    raw = JSON.parse(trimmed);
  } catch {
    return { ok: false, reason: 'the request is not valid JSON' };
  }
  const dup = duplicateKeyProblem(trimmed);
  if (dup) return { ok: false, reason: dup };
  if (!isDoc(raw)) return { ok: false, reason: 'the request must be a JSON object' };
  const operation = raw.operation;
  if (typeof operation !== 'string') return { ok: false, reason: '`operation` must be a string' };
  if (!(operation in FIELDS))
    return { ok: false, reason: `unknown operation ${JSON.stringify(operation)}`, operation };
  const op = operation as MongoOperation;
  const fail = (reason: string): ParsedRequest => ({ ok: false, reason, operation: op });
  const extra = Object.keys(raw).filter(
    (k) => k !== 'collection' && k !== 'operation' && !FIELDS[op].includes(k),
  );
  if (extra.length > 0) return fail(`${op} does not take the field ${JSON.stringify(extra[0])}`);
  if (typeof raw.collection !== 'string' || raw.collection === '' || raw.collection.includes('\0'))
    return fail('`collection` must be a non-empty string');
  let value: Doc;
  try {
    value = EJSON.deserialize(raw, { relaxed: true }) as Doc;
  } catch (err) {
    return fail(`invalid Extended JSON: ${(err as Error).message}`);
  }
  const filter = value.filter ?? {};
  if (!isDoc(filter)) return fail('`filter` must be an object');
  const options = value.options ?? {};
  if (!isDoc(options)) return fail('`options` must be an object');
  const badOption = Object.keys(options).find((k) => !OPTIONS[op].includes(k));
  if (badOption) return fail(`${op} does not take the option ${JSON.stringify(badOption)}`);
  const request: MongoRequest = {
    collection: raw.collection,
    operation: op,
    filter,
    pipeline: [],
    documents: [],
    options,
  };
  if (op === 'aggregate') {
    if (!Array.isArray(value.pipeline) || !value.pipeline.every(isDoc))
      return fail('`pipeline` must be an array of stage objects');
    request.pipeline = value.pipeline;
  }
  if (op === 'distinct') {
    if (typeof raw.field !== 'string' || raw.field === '')
      return fail('distinct needs a top-level string `field`');
    request.field = raw.field;
  }
  if (op === 'insertOne' || op === 'insertMany') {
    const docs = op === 'insertOne' && isDoc(value.documents) ? [value.documents] : value.documents;
    if (!Array.isArray(docs) || docs.length === 0 || !docs.every(isDoc))
      return fail('`documents` must be a non-empty array of objects (one object for insertOne)');
    if (op === 'insertOne' && docs.length !== 1) return fail('insertOne takes exactly one document');
    request.documents = docs;
  }
  if (op === 'updateOne' || op === 'updateMany') {
    const u = value.update;
    if (!(isDoc(u) && Object.keys(u).length > 0) && !(Array.isArray(u) && u.length > 0 && u.every(isDoc)))
      return fail('`update` must be an update document or a pipeline');
    if (isDoc(u) && !Object.keys(u).every((k) => k.startsWith('$')))
      return fail('`update` must use update operators ($set, $inc, …); replacing a document is not offered');
    request.update = u;
  }
  return { ok: true, request };
}

export function isReadOperation(op: string | undefined): boolean {
  return (READ_OPERATIONS as readonly string[]).includes(op ?? '');
}
