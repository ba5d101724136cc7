// Object lists and the datasource's object rules (`objectRules: {hidden: ["schema.table", "schema.*"],
// defaultSchema}`): a statement that names a hidden object, or whose reach the server cannot place
// (an unqualified name with no default schema, a wildcard, a CALL, dynamic SQL, a doubtful reading), is
// refused. Names compare case-insensitively (folding either way could only hide more); quoted parts of a
// rule (`"my.schema".t`) keep their dots.
import type { ObjectRef, ScriptClassification } from './types.js';

export function addObject(list: ObjectRef[], ref: ObjectRef): void {
  const found = list.find((o) => o.schema === ref.schema && o.name === ref.name);
  if (!found) list.push(ref);
  else if (ref.access === 'write') found.access = 'write';
}

/** An `unplaceable` entry: `<subject>: <reason>`. */
export function unplaceableEntry(subject: string, reason: string): string {
  return `${subject}: ${reason}`;
}

function subjectOf(entry: string): string {
  const at = entry.indexOf(': ');
  return at < 0 ? entry : entry.slice(0, at);
}

/** Splits `a.b.c` into parts, honouring "…", `…` and […] quoting. */
export function splitQualified(text: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let i = 0;
  const t = text.trim();
  while (i < t.length) {
    const c = t[i];
    const close = c === '"' ? '"' : c === '`' ? '`' : c === '[' ? ']' : '';
    if (close) {
      let j = i + 1;
      for (; j < t.length; j++) {
        if (t[j] === close && t[j + 1] === close) {
          cur += close;
          j++;
        } else if (t[j] === close) break;
        else cur += t[j];
      }
      i = j + 1;
    } else if (c === '.') {
      parts.push(cur.trim());
      cur = '';
      i++;
    } else {
      cur += c;
      i++;
    }
  }
  parts.push(cur.trim());
  return parts;
}

export interface ObjectRules {
  /** `schema.table`, `schema.*`, or a bare `table` (hidden in every schema). */
  hidden: string[];
  defaultSchema?: string;
}

export interface ObjectRuleViolation {
  kind: 'hidden' | 'unplaceable';
  /** The object as the statement reaches it (`schema.table`, `*`, `CALL proc`). */
  object: string;
  reason: string;
  statementIndex: number;
}

interface HiddenRule {
  schema?: string;
  name: string;
}

const eq = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function parseRule(entry: string): HiddenRule | undefined {
  const parts = splitQualified(entry).filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return { name: parts[0] };
  return { schema: parts[parts.length - 2], name: parts[parts.length - 1] };
}

const display = (o: ObjectRef) => (o.schema ? `${o.schema}.${o.name}` : o.name);

/**
 * The first object-rule violation of a classified script, or undefined. Hidden objects are reported before
 * unplaceable reach. With no hidden entries there is nothing to enforce.
 */
export function objectRuleViolation(
  result: ScriptClassification,
  rules: ObjectRules,
): ObjectRuleViolation | undefined {
  const hidden = (rules.hidden ?? []).map(parseRule).filter((r): r is HiddenRule => r !== undefined);
  if (hidden.length === 0) return undefined;
  const isHidden = (schema: string | undefined, name: string) =>
    hidden.some(
      (h) =>
        (h.schema === undefined || (schema !== undefined && eq(h.schema, schema))) &&
        (h.name === '*' || name === '*' || eq(h.name, name)),
    );
  for (const st of result.statements) {
    for (const o of st.objects) {
      const schema = o.schema ?? rules.defaultSchema;
      if (isHidden(schema, o.name)) {
        return {
          kind: 'hidden',
          object: display(o),
          reason: 'names a hidden object',
          statementIndex: st.index,
        };
      }
    }
  }
  for (const st of result.statements) {
    const first = st.unplaceable[0];
    if (first)
      return { kind: 'unplaceable', object: subjectOf(first), reason: first, statementIndex: st.index };
    for (const o of st.objects) {
      if (o.schema ?? rules.defaultSchema) continue;
      const reason =
        o.name === '*'
          ? 'reaches every object (wildcard)'
          : `${o.name}: unqualified name and the datasource has no default schema`;
      return { kind: 'unplaceable', object: o.name, reason, statementIndex: st.index };
    }
  }
  return undefined;
}
