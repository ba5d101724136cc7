// The federated engine's session statements: SET SESSION, RESET SESSION, USE and DEALLOCATE PREPARE are
// answered by the provider itself with a warning and never reach the engine (each statement runs in a fresh
// protocol session, so they would change nothing), so they read nothing and write nothing. PREPARE keeps the
// generic reading, which remembers what a later EXECUTE in the same script would run.
import type { LexOptions } from './dialects.js';
import { headWords } from './keywords.js';
import { lex } from './lexer.js';
import type { StatementClassification } from './types.js';

/** The read classification of a session statement, or undefined for any other text. */
export function federatedSessionStatement(
  text: string,
  index: number,
  lexOptions: LexOptions,
): StatementClassification | undefined {
  const lx = lex(text, lexOptions);
  if (lx.unterminated || lx.executableComment || lx.nonAsciiCode || lx.tokens.some((t) => t.kind === 'semi'))
    return undefined;
  const [w1, w2] = headWords(lx.tokens, 2);
  const session =
    ((w1 === 'SET' || w1 === 'RESET') && w2 === 'SESSION') ||
    w1 === 'USE' ||
    (w1 === 'DEALLOCATE' && w2 === 'PREPARE');
  if (!session) return undefined;
  return {
    index,
    text,
    kind: 'read',
    statementType: w1 === 'USE' ? 'USE' : 'SET',
    guardrails: [],
    objects: [],
    unplaceable: [],
    transactionControl: false,
    doubtful: false,
  };
}
