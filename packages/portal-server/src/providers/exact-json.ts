// A JSON reader that keeps integers wider than 2^53 exact: HTTP engines (Trino, Druid, Couchbase, the search
// engines) write 64-bit integers as bare JSON numbers, which JSON.parse would round. Before parsing, every
// integer literal outside strings that is not a safe integer is rewritten as a string of its digits;
// everything else parses as usual.

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** JSON.parse, but an integer beyond ±(2^53 - 1) arrives as its exact digit string. */
export function parseExactJson(text: string): unknown {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      // Skip the string (escapes included).
      i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m) {
        const literal = m[0];
        if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
          out += `${text.slice(last, i)}"${literal}"`;
          last = i + literal.length;
        }
        i += literal.length;
        continue;
      }
    }
    i++;
  }
  return JSON.parse(last === 0 ? text : out + text.slice(last));
}
