// Classifies a document-engine request (providers/mongodb/request.ts reads it, for the provider and for this
// classifier alike). MongoDB's own notion of read and write: find, findOne, count, distinct and aggregate
// read; insert*, update* and delete* write; an aggregate whose pipeline holds `$out` or `$merge` (at any depth,
// e.g. inside `$facet` or `$lookup`) writes. Guardrails: delete* → `delete`, and with an empty filter also
// `delete_without_where`; update* with an empty filter → `update_without_where`; `$out` replaces its target
// collection → `drop`. Server-side JavaScript (`$where`, `$function`, `$accumulator`) fails closed: the
// request counts as a doubtful write, since the portal cannot read what the code does. Text that is not one
// valid request (bad JSON, a duplicated key, an unknown operation or field) is a doubtful write too — except
// a malformed request of a reading operation, which the provider refuses with 400 before anything runs.
import {
  type Doc,
  isReadOperation,
  type MongoRequest,
  parseMongoRequest,
} from '../../providers/mongodb/request.js';
import type {
  GuardrailValue,
  ObjectRef,
  ScriptClassification,
  StatementClassification,
  StatementType,
} from './types.js';

const JAVASCRIPT = new Set(['$where', '$function', '$accumulator']);
const WRITE_STAGES = new Set(['$out', '$merge']);

/** Walks every key of a value (documents and arrays, at any depth). */
function* keysOf(v: unknown): Generator<[string, unknown]> {
  if (Array.isArray(v)) for (const x of v) yield* keysOf(x);
  else if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    for (const [k, x] of Object.entries(v as Doc)) {
      yield [k, x];
      yield* keysOf(x);
    }
  }
}

/** Collections a pipeline reaches besides its own ($lookup, $graphLookup, $unionWith, $out, $merge). */
function pipelineObjects(pipeline: unknown, objects: ObjectRef[]): void {
  const add = (name: unknown, access: 'read' | 'write') => {
    if (typeof name === 'string' && name !== '') {
      const found = objects.find((o) => o.name === name);
      if (!found) objects.push({ name, access });
      else if (access === 'write') found.access = 'write';
    } else if (typeof name === 'object' && name !== null) {
      const o = name as Doc;
      add(o.coll, access);
      if (typeof o.db === 'string') objects.push({ schema: o.db, name: String(o.coll ?? '*'), access });
    }
  };
  for (const [k, v] of keysOf(pipeline)) {
    const stage = v as Doc;
    if ((k === '$lookup' || k === '$graphLookup') && stage) add(stage.from, 'read');
    if (k === '$unionWith') add(typeof v === 'string' ? v : stage?.coll, 'read');
    if (k === '$out') add(v, 'write');
    if (k === '$merge') add(typeof v === 'string' ? v : stage?.into, 'write');
  }
}

/** Stages whose output keeps stored field names (masking by name still holds after them). */
const NAME_KEEPING = new Set([
  '$match',
  '$sort',
  '$limit',
  '$skip',
  '$sample',
  '$unwind',
  '$count',
  '$unset',
]);

/** A projection that only includes or excludes fields (no computed values). */
function plainProjection(p: unknown): boolean {
  if (p === undefined) return true;
  if (typeof p !== 'object' || p === null) return false;
  return Object.values(p as Doc).every((v) => v === 0 || v === 1 || v === true || v === false);
}

/** Whether the request's output fields may be computed rather than stored (see `opaqueOutput`). */
function opaque(r: MongoRequest): boolean {
  if (r.operation === 'find' || r.operation === 'findOne') return !plainProjection(r.options.projection);
  if (r.operation !== 'aggregate') return false;
  return r.pipeline.some((stage) =>
    Object.entries(stage).some(([k, v]) => {
      if (NAME_KEEPING.has(k)) return false;
      if (k === '$project') return !plainProjection(v);
      // A plain join nests the other collection's stored documents under `as`.
      if (k === '$lookup' || k === '$unionWith')
        return typeof v === 'object' && v !== null && 'pipeline' in v;
      return true;
    }),
  );
}

/** Field paths a filter or `$match` tests (keys that are not operators, and `$path` references in `$expr`). */
function filterFields(v: unknown, out: Set<string>, prefix = ''): void {
  if (Array.isArray(v)) for (const x of v) filterFields(x, out, prefix);
  else if (typeof v === 'string' && v.startsWith('$') && !v.startsWith('$$')) out.add(v.slice(1));
  else if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
    for (const [k, x] of Object.entries(v as Doc)) {
      if (k.startsWith('$')) filterFields(x, out, prefix);
      else {
        out.add(prefix ? `${prefix}.${k}` : k);
        // `$elemMatch` and nested documents test fields below this one.
        filterFields(x, out, prefix ? `${prefix}.${k}` : k);
      }
    }
  }
}

/** Every `$path` field reference in a value (pipeline expressions); `$$ROOT`/`$$CURRENT` reach every field (`*`). */
function references(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) references(x, out);
  else if (typeof v === 'string' && /^\$\$(ROOT|CURRENT)(\.|$)/.test(v)) {
    const rest = v.replace(/^\$\$(ROOT|CURRENT)\.?/, '');
    out.add(rest === '' ? '*' : rest);
  } else if (typeof v === 'string' && v.startsWith('$') && !v.startsWith('$$')) out.add(v.slice(1));
  else if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
    for (const x of Object.values(v as Doc)) references(x, out);
}

/**
 * Where the request's fields steer the result without being shown: the filter (also of writes, whose counts
 * answer it), the sort, and in a pipeline `$match`, `$sort` and every expression reference (`$group` by a
 * field, `$lookup` join fields, computed values: a pipeline is fail-closed here, as its computed output is
 * masked whole by `opaqueOutput`). A find projection only shows values (computed ones are masked whole).
 */
function steering(r: MongoRequest): Array<{ field: string; clause: string }> {
  const out: Array<{ field: string; clause: string }> = [];
  const add = (fields: Iterable<string>, clause: string) => {
    for (const field of fields) out.push({ field, clause });
  };
  const filter = new Set<string>();
  filterFields(r.filter, filter);
  add(filter, 'filter');
  const sort = r.options.sort;
  if (typeof sort === 'object' && sort !== null) add(Object.keys(sort), 'sort');
  for (const stage of r.pipeline) {
    for (const [k, v] of Object.entries(stage)) {
      const fields = new Set<string>();
      if (k === '$match') filterFields(v, fields);
      else if (k === '$sort' && typeof v === 'object' && v !== null)
        for (const f of Object.keys(v)) fields.add(f);
      else if (k === '$lookup' && typeof v === 'object' && v !== null) {
        const l = v as Doc;
        for (const f of [l.localField, l.foreignField]) if (typeof f === 'string') fields.add(f);
        references(l.pipeline, fields);
      } else references(v, fields);
      add(fields, k.slice(1));
    }
  }
  return out;
}

function judge(r: MongoRequest): Omit<StatementClassification, 'index' | 'text' | 'unplaceable'> {
  const everything = [r.filter, r.pipeline, r.update, r.documents, r.options];
  const keys = [...keysOf(everything)].map(([k]) => k);
  const javascript = keys.find((k) => JAVASCRIPT.has(k));
  const objects: ObjectRef[] = [];
  const emptyFilter = Object.keys(r.filter).length === 0;
  let kind: 'read' | 'write' = isReadOperation(r.operation) ? 'read' : 'write';
  let statementType: StatementType = 'SELECT';
  const guardrails: GuardrailValue[] = [];
  if (r.operation === 'aggregate' && keys.some((k) => WRITE_STAGES.has(k))) {
    kind = 'write';
    statementType = 'INSERT';
    if (keys.includes('$out')) guardrails.push('drop');
  } else if (r.operation.startsWith('insert')) statementType = 'INSERT';
  else if (r.operation.startsWith('update')) {
    statementType = 'UPDATE';
    if (emptyFilter) guardrails.push('update_without_where');
  } else if (r.operation.startsWith('delete')) {
    statementType = 'DELETE';
    if (emptyFilter) guardrails.push('delete_without_where');
    guardrails.push('delete');
  }
  objects.push({ name: r.collection, access: kind });
  pipelineObjects(r.pipeline, objects);
  if (javascript) {
    return {
      kind: 'write',
      statementType,
      guardrails,
      objects,
      transactionControl: false,
      doubtful: true,
      reason: `${javascript} runs server-side JavaScript the portal cannot judge: counted as a write`,
    };
  }
  return {
    kind,
    statementType,
    guardrails,
    objects,
    transactionControl: false,
    doubtful: false,
    ...(opaque(r) ? { opaqueOutput: true } : {}),
    steering: steering(r),
  };
}

/** The classification of one request (the whole text is one statement). */
export function classifyMongo(sql: string): ScriptClassification {
  const base = { index: 0, text: sql.trim(), unplaceable: [] as string[] };
  const parsed = parseMongoRequest(sql);
  let s: StatementClassification;
  if (parsed.ok) s = { ...base, ...judge(parsed.request) };
  else if (isReadOperation(parsed.operation)) {
    // Nothing runs (the provider refuses the same text with 400), so the route can say why.
    s = {
      ...base,
      kind: 'read',
      statementType: 'SELECT',
      guardrails: [],
      objects: [],
      transactionControl: false,
      doubtful: false,
      reason: parsed.reason,
    };
  } else {
    s = {
      ...base,
      kind: 'write',
      statementType: 'UNKNOWN',
      guardrails: [],
      objects: [],
      transactionControl: false,
      doubtful: true,
      reason: parsed.reason,
    };
  }
  return {
    statements: [s],
    isWrite: s.kind === 'write',
    guardrails: s.guardrails,
    transactionControl: false,
  };
}
