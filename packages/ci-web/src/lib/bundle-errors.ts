// Turns the apply endpoint's 400 message ("The bundle is not valid: <path>: <message> (line L, column C);
// …") into separate problems with their positions, so the editor can list them and jump to each. A message
// that does not have that form is kept whole.

export interface BundleProblem {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

const PREFIX = 'The bundle is not valid: ';
// One problem: its text up to the first "(line L, column C)" (optionally "(file, line …)") that ends it.
const ITEM = /([\s\S]*?) \((?:([^()]+?), )?line (\d+), column (\d+)\)(?:; |$)/y;

function split(text: string): Pick<BundleProblem, 'path' | 'message'> {
  const i = text.indexOf(': ');
  return i > 0 ? { path: text.slice(0, i), message: text.slice(i + 2) } : { path: '', message: text };
}

export function parseBundleErrors(message: string): BundleProblem[] {
  if (!message.startsWith(PREFIX)) return [{ path: '', message }];
  const body = message.slice(PREFIX.length);
  const problems: BundleProblem[] = [];
  ITEM.lastIndex = 0;
  let at = 0;
  for (let m = ITEM.exec(body); m; m = ITEM.exec(body)) {
    problems.push({
      ...split(m[1]),
      ...(m[2] ? { file: m[2] } : {}),
      line: Number(m[3]),
      column: Number(m[4]),
    });
    at = ITEM.lastIndex;
    if (at >= body.length) break;
  }
  const rest = body.slice(at).trim();
  if (rest) problems.push(split(rest));
  return problems;
}

/** Character offset of a 1-based line and column in `text` (clamped to the text). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  const end = text.indexOf('\n', offset);
  const lineLength = (end < 0 ? text.length : end) - offset;
  return offset + Math.min(Math.max(0, column - 1), lineLength);
}
