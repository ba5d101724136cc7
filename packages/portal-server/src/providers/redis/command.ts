// Reads the `sql` field of a Redis datasource into one command: plain text as redis-cli reads it (words
// split on spaces, "double-quoted" strings with backslash escapes, 'single-quoted' strings taken literally)
// or a JSON object {command, args}. Exactly one command per request: an unquoted newline or semicolon ends
// the text, so "GET a\nFLUSHALL" is refused rather than half-read. Both the provider (to run it) and the
// classifier (to judge it) read the text with this one function, so they cannot disagree.

export interface RedisCommand {
  /** Upper-cased command name. */
  name: string;
  /** Arguments exactly as sent to the server. */
  args: string[];
}

export type ParsedCommand = { ok: true; command: RedisCommand } | { ok: false; reason: string };

const ESCAPES: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  a: '\x07',
  '"': '"',
  '\\': '\\',
};

/** Splits plain command text into words, or says why it is not one command. */
function words(text: string): string[] | string {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '\n' || c === '\r' || c === ';') {
      if (text.slice(i).trim().replace(/^;+/, '').trim() === '') break;
      return 'one command per request: the text holds more than one command';
    }
    let word = '';
    if (c === '"' || c === "'") {
      i++;
      let closed = false;
      while (i < text.length) {
        const d = text[i];
        if (d === c) {
          closed = true;
          i++;
          break;
        }
        if (c === '"' && d === '\\' && i + 1 < text.length) {
          const e = text[i + 1];
          if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
            word += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 4), 16));
            i += 4;
          } else {
            word += ESCAPES[e] ?? e;
            i += 2;
          }
          continue;
        }
        word += d;
        i++;
      }
      if (!closed) return 'unbalanced quotes in the command';
      const next = text[i];
      if (next !== undefined && !' \t\r\n;'.includes(next))
        return 'a closing quote must be followed by a space';
    } else {
      while (i < text.length && !' \t\r\n;"\''.includes(text[i])) word += text[i++];
      if (text[i] === '"' || text[i] === "'") return 'a quote inside a word is not accepted';
    }
    out.push(word);
  }
  return out;
}

/** The one command `text` holds. */
export function parseRedisCommand(text: string): ParsedCommand {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'the text holds no command' };
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { ok: false, reason: 'the JSON form must be an object {command, args}' };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ok: false, reason: 'the JSON form must be an object {command, args}' };
    const o = value as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => k !== 'command' && k !== 'args');
    if (extra.length > 0) return { ok: false, reason: `unknown field ${extra[0]} in the JSON form` };
    if (typeof o.command !== 'string' || !/^[A-Za-z][A-Za-z0-9_.|-]*$/.test(o.command))
      return { ok: false, reason: '`command` must be a command name (a string)' };
    const args = o.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number'))
      return { ok: false, reason: '`args` must be an array of strings and numbers' };
    return { ok: true, command: { name: o.command.toUpperCase(), args: args.map(String) } };
  }
  const w = words(trimmed);
  if (typeof w === 'string') return { ok: false, reason: w };
  if (w.length === 0) return { ok: false, reason: 'the text holds no command' };
  const [name, ...args] = w;
  if (!/^[A-Za-z][A-Za-z0-9_.|-]*$/.test(name)) return { ok: false, reason: `${name} is not a command name` };
  return { ok: true, command: { name: name.toUpperCase(), args } };
}
