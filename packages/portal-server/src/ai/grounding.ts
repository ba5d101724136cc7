// What the AI features tell the model besides the user's text: the server's own classification of the
// statement (the model never decides whether a statement writes — the classifier does, and its verdict is
// part of every answer) and the object surface of the datasource (tables and columns as the caller may see
// them: hidden objects left out, masked columns removed, so their names and types never reach a model).

import type { ExecutionAdapter } from '../agent/execution-adapter.js';
import type { Principal } from '../auth/principal.js';
import { classifyScript, type Dialect, dialectForEngine } from '../governance/classify/index.js';
import type { DatabaseObject, ObjectDetail } from '../providers/types.js';

/** Objects described for one explain or safety answer. */
export const GROUNDING_MAX_OBJECTS = 10;
/** Objects described for one schema description. */
export const SCHEMA_MAX_OBJECTS = 30;

export interface Verdict {
  /** The engine grammar the statement was read with. */
  dialect: string;
  /** Any statement writes (a statement the parser doubts counts as a write). */
  isWrite: boolean;
  transactionControl: boolean;
  guardrails: string[];
  statements: Array<{
    index: number;
    statementType: string;
    kind: 'read' | 'write';
    doubtful: boolean;
    objects: string[];
  }>;
}

/** Classifies `sql` for the engine exactly as the execution routes do. */
export async function classifyForAi(sql: string, engine: string, defaultSchema?: string): Promise<Verdict> {
  const dialect = dialectForEngine(engine) ?? (engine as Dialect);
  const c = await classifyScript(sql, dialect, defaultSchema ? { defaultSchema } : {});
  return {
    dialect: engine,
    isWrite: c.isWrite,
    transactionControl: c.transactionControl,
    guardrails: [...c.guardrails],
    statements: c.statements.map((s) => ({
      index: s.index,
      statementType: s.statementType,
      kind: s.kind === 'read' ? 'read' : 'write',
      doubtful: s.doubtful,
      objects: s.objects.map((o) => (o.schema ? `${o.schema}.${o.name}` : o.name)),
    })),
  };
}

/** The verdict as the model reads it: stated as fact, with the instruction not to contradict it. */
export function verdictText(v: Verdict): string {
  const lines = [
    `The portal's classifier (authoritative; do not contradict it) read this as ${v.isWrite ? 'a WRITE' : 'READ-ONLY'}` +
      `${v.transactionControl ? ', with transaction control' : ''}.`,
  ];
  for (const s of v.statements) {
    lines.push(
      `- statement ${s.index + 1}: ${s.statementType}, ${s.kind}${s.doubtful ? ' (the parser doubts its reading: treated as a write)' : ''}` +
        `${s.objects.length ? `, objects: ${s.objects.join(', ')}` : ''}`,
    );
  }
  if (v.guardrails.length)
    lines.push(`Guardrails hit (these statements wait for review): ${v.guardrails.join(', ')}.`);
  return lines.join('\n');
}

function columnsText(d: ObjectDetail): string {
  const cols = d.columns.map(
    (c) => `${c.name} ${c.type}${c.isPrimary ? ' PK' : ''}${c.nullable ? '' : ' NOT NULL'}`,
  );
  const fks = d.foreignKeys.map((f) => `${f.columnName} -> ${f.referencedTable}.${f.referencedColumn}`);
  return `${d.object.path.join('.')} (${d.object.kind}): ${cols.join(', ')}${fks.length ? `; references ${fks.join(', ')}` : ''}`;
}

/** Whether a classified name (`schema.table` or `table`) names the listed object. */
function names(ref: string, o: DatabaseObject): boolean {
  const parts = ref.toLowerCase().split('.');
  const name = parts[parts.length - 1];
  if (o.name.toLowerCase() !== name) return false;
  if (parts.length < 2) return true;
  const container = o.path[o.path.length - 2]?.toLowerCase();
  return container === undefined || container === parts[parts.length - 2];
}

/** Columns of the objects the statement names (those the caller may see), one line each. */
export async function referencedObjectsText(
  adapter: ExecutionAdapter,
  principal: Principal,
  datasourceId: string,
  v: Verdict,
): Promise<string> {
  const refs = [...new Set(v.statements.flatMap((s) => s.objects))].filter((r) => !r.endsWith('*'));
  if (refs.length === 0) return '';
  const listed = await adapter.listObjects(principal, datasourceId);
  const picked = listed.filter((o) => refs.some((r) => names(r, o))).slice(0, GROUNDING_MAX_OBJECTS);
  const lines: string[] = [];
  for (const o of picked) {
    const d = await adapter.describe(principal, datasourceId, [...o.path]).catch(() => undefined);
    if (d) lines.push(columnsText(d));
  }
  return lines.length
    ? `Objects the statement uses (masked columns are not shown):\n${lines.join('\n')}`
    : '';
}

/** The schema of a container (or the whole datasource) as text, and the objects described. */
export async function schemaText(
  adapter: ExecutionAdapter,
  principal: Principal,
  datasourceId: string,
  path: string[] | undefined,
): Promise<{ text: string; objects: string[] }> {
  const listed = await adapter.listObjects(principal, datasourceId, path);
  const picked = listed.filter((o) => /table|view/i.test(o.kind)).slice(0, SCHEMA_MAX_OBJECTS);
  const lines: string[] = [];
  const objects: string[] = [];
  for (const o of picked) {
    const d = await adapter.describe(principal, datasourceId, [...o.path]).catch(() => undefined);
    if (!d) continue;
    lines.push(columnsText(d));
    objects.push(o.path.join('.'));
  }
  const more =
    listed.length > picked.length ? `\n(${listed.length - picked.length} more objects not shown)` : '';
  return { text: `${lines.join('\n')}${more}`, objects };
}
