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
  return { kind, statementType, guardrails, objects, transactionControl: false, doubtful: false };
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
