// System routines and packages by name prefix (the engine descriptor's `systemRoutinePrefixes`): T-SQL's
// `sp_`/`xp_` procedures and OPENROWSET/OPENQUERY/OPENDATASOURCE, Oracle's DBMS_ and UTL_ packages. They can run
// SQL text the classifier never sees (DBMS_XMLGEN.GETXML('SELECT … FROM secret') inside a plain SELECT), reach
// files or other servers, or change state; a call of one, or a reference into one (`dbms_random.value`), makes
// the statement unverifiable wherever it stands.
import type { Token } from './lexer.js';

const isName = (t: Token | undefined) => t?.kind === 'word' || t?.kind === 'qident';
const isOp = (t: Token | undefined, v: string) => t?.kind === 'op' && t.value === v;

/** The first system routine or package the tokens call or reach into, or undefined. */
export function systemRoutine(
  tokens: readonly Token[],
  prefixes: readonly string[] | undefined,
): string | undefined {
  if (!prefixes?.length) return undefined;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (!isName(t) || !(isOp(tokens[k + 1], '(') || isOp(tokens[k + 1], '.'))) continue;
    const name = t.value.toLowerCase();
    if (prefixes.some((p) => name.startsWith(p))) return t.value;
  }
  return undefined;
}
