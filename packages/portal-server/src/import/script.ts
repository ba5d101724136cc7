// SQL-script imports: which scripts count as an import into a table (every statement an INSERT writing that
// table and reading nothing, judged on the governance classifier's reading), and running them statement by
// statement on one governed session, each committed on its own, a refused statement reported with the
// engine's reason and its line instead of ending the import (unless the caller asked to stop).
import type { ScriptClassification } from '../governance/classify/types.js';
import { toHttpError } from '../providers/errors.js';
import type { ProviderSession } from '../providers/types.js';
import type { FailedRow, ImportOutcome, ImportProgress } from './batches.js';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Why the script is not an import into `path`, or undefined when every statement inserts into it only. */
export function scriptRefusal(c: ScriptClassification, path: readonly string[]): string | undefined {
  const name = path[path.length - 1];
  const schema = path.length >= 2 ? path[path.length - 2] : undefined;
  for (const st of c.statements) {
    const where = `statement ${st.index + 1}`;
    if (st.statementType !== 'INSERT' || st.doubtful)
      return `${where} is ${st.statementType === 'UNKNOWN' ? 'not readable' : `a ${st.statementType}`}: an import script holds INSERT statements into ${path.join('.')}`;
    const other = st.objects.find(
      (o) =>
        o.access !== 'write' ||
        !same(o.name, name) ||
        (o.schema !== undefined && !o.defaulted && schema !== undefined && !same(o.schema, schema)),
    );
    if (other || st.objects.length === 0)
      return `${where} ${other ? `${other.access === 'write' ? 'writes' : 'reads'} ${[other.schema, other.name].filter(Boolean).join('.')}` : 'names no table'}: an import script only inserts values into ${path.join('.')}`;
  }
  return undefined;
}

/** 1-based line of each statement in the script (statements as split, found in order). */
export function statementLines(script: string, statements: readonly string[]): number[] {
  const lines: number[] = [];
  let from = 0;
  let line = 1;
  for (const st of statements) {
    const at = script.indexOf(st, from);
    const to = at === -1 ? from : at;
    for (let k = script.indexOf('\n', from); k !== -1 && k < to; k = script.indexOf('\n', k + 1)) line++;
    lines.push(line);
    if (at !== -1) from = at;
  }
  return lines;
}

export async function runScript(
  session: ProviderSession,
  statements: readonly string[],
  lines: readonly number[],
  options: { onError: 'skip' | 'stop'; maxListed: number },
  hooks: { progress(p: ImportProgress): void | Promise<void>; cancelled(): boolean },
): Promise<ImportOutcome> {
  const out: ImportOutcome = { rowCount: 0, failedCount: 0, failed: [], stopped: false, batches: 0 };
  for (const [i, st] of statements.entries()) {
    if (hooks.cancelled()) {
      out.stopped = true;
      break;
    }
    out.batches++;
    try {
      out.rowCount += (await session.query(st, [], { maxRows: 0 })).rowCount;
    } catch (err) {
      if (hooks.cancelled()) throw err;
      out.failedCount++;
      const failed: FailedRow = { row: i + 1, line: lines[i] ?? 0, reason: toHttpError(err).message };
      if (out.failed.length < options.maxListed) out.failed.push(failed);
      if (options.onError === 'stop') {
        out.stopped = true;
        break;
      }
    }
    if ((i + 1) % 100 === 0) await hooks.progress({ rowCount: out.rowCount, failedCount: out.failedCount });
  }
  return out;
}
