// The command grammar of the embedded key-value engine (docs/portal-engines.md): one command per request,
// words split on spaces with "double" or 'single' quoted strings, the verb case-insensitive.
//   GET <key>                      one row {key, value}, or none
//   PUT <key> <value>              stores the value (write)
//   DELETE <key>                   removes the key (write, `delete` guardrail)
//   PREFIX <prefix> [LIMIT <n>]    rows {key, value} of keys starting with prefix, in key order
//   RANGE <from> <to> [LIMIT <n>]  rows of keys with from <= key < to ("" leaves a side open)
// Both the provider and the classifier read the text with this one function.

export type LevelCommand =
  | { verb: 'GET' | 'DELETE'; key: string }
  | { verb: 'PUT'; key: string; value: string }
  | { verb: 'PREFIX'; prefix: string; limit?: number }
  | { verb: 'RANGE'; from: string; to: string; limit?: number };

export type ParsedLevel = { ok: true; command: LevelCommand } | { ok: false; reason: string; verb?: string };

/** Splits the text into words (quotes group; an unquoted line break or `;` before more text is refused). */
function words(text: string): string[] | string {
  const re = /[ \t]*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"';]+)|([;\r\n])|(\S))/gy;
  const out: string[] = [];
  let m: RegExpExecArray | null = re.exec(text);
  while (m) {
    if (m[4] !== undefined) {
      if (text.slice(re.lastIndex).replace(/[;\s]+/g, '') !== '')
        return 'one command per request: the text holds more than one command';
      break;
    }
    if (m[5] !== undefined) return 'unbalanced quotes in the command';
    if (m[1] !== undefined) out.push(m[1].replace(/\\(.)/g, '$1'));
    else out.push(m[2] ?? m[3]);
    m = re.exec(text);
  }
  return out;
}

function limitOf(rest: string[]): number | undefined | string {
  if (rest.length === 0) return undefined;
  if (rest.length === 2 && rest[0].toUpperCase() === 'LIMIT' && /^\d{1,9}$/.test(rest[1]))
    return Number(rest[1]);
  return 'expected LIMIT <n> or nothing after the keys';
}

export function parseLevelCommand(text: string): ParsedLevel {
  const w = words(text.trim());
  if (typeof w === 'string') return { ok: false, reason: w };
  if (w.length === 0) return { ok: false, reason: 'the text holds no command' };
  const verb = w[0].toUpperCase();
  const args = w.slice(1);
  const bad = (usage: string): ParsedLevel => ({ ok: false, reason: `usage: ${usage}`, verb });
  switch (verb) {
    case 'GET':
    case 'DELETE':
      return args.length === 1 ? { ok: true, command: { verb, key: args[0] } } : bad(`${verb} <key>`);
    case 'PUT':
      return args.length === 2
        ? { ok: true, command: { verb, key: args[0], value: args[1] } }
        : bad('PUT <key> <value>');
    case 'PREFIX': {
      const limit = limitOf(args.slice(1));
      if (args.length < 1 || typeof limit === 'string') return bad('PREFIX <prefix> [LIMIT <n>]');
      return { ok: true, command: { verb, prefix: args[0], ...(limit !== undefined ? { limit } : {}) } };
    }
    case 'RANGE': {
      const limit = limitOf(args.slice(2));
      if (args.length < 2 || typeof limit === 'string') return bad('RANGE <from> <to> [LIMIT <n>]');
      return {
        ok: true,
        command: { verb, from: args[0], to: args[1], ...(limit !== undefined ? { limit } : {}) },
      };
    }
    default:
      return { ok: false, reason: `unknown command ${w[0]}; use GET, PUT, DELETE, PREFIX or RANGE`, verb };
  }
}
