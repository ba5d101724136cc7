// Comment- and string-aware tokenizer that follows each engine's lexical rules (which `--` is a comment,
// whether comments nest, MySQL's executable `/*! … */`, dollar quotes, backslash escapes). It is the
// classifier's second opinion: the parser's reading is cross-checked against these tokens, and the text
// is re-read under alternative rules to find statements that mean different things to different readers.
import type { LexOptions } from './dialects.js';

export type TokenKind = 'word' | 'qident' | 'string' | 'number' | 'op' | 'semi' | 'param';

export interface Token {
  kind: TokenKind;
  /** Upper-cased text for words; unquoted content for strings and quoted identifiers; the text otherwise. */
  value: string;
  start: number;
  end: number;
}

export interface LexResult {
  tokens: Token[];
  /** Bodies of ordinary comments (executable comments are code and appear as tokens). */
  comments: string[];
  /** Bodies of dollar-quoted strings. */
  dollarBodies: string[];
  unterminated: boolean;
  executableComment: boolean;
  /** A character outside ASCII in code (homoglyph keywords, odd whitespace, zero-width characters). */
  nonAsciiCode: boolean;
  /** PostgreSQL U&'…' / U&"…" escapes. */
  unicodeEscape: boolean;
  /** A backslash in code (MySQL client commands such as `\g`). */
  strayBackslash: boolean;
  /** The text with comments blanked and executable-comment markers removed: what the engine's grammar sees. */
  normalized: string;
}

const isWordStart = (c: string) => /[A-Za-z_]/.test(c) || c.charCodeAt(0) > 127;
const isWordChar = (c: string) => /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) > 127;
const isDigit = (c: string) => c >= '0' && c <= '9';
const NUMBER = /^(?:0x[0-9a-f]+|\d+(?:\.\d*)?(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?)/i;
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;
const Q_CLOSERS: Record<string, string> = { '[': ']', '{': '}', '(': ')', '<': '>' };

export function lex(text: string, o: LexOptions): LexResult {
  const n = text.length;
  const tokens: Token[] = [];
  const comments: string[] = [];
  const dollarBodies: string[] = [];
  const out: string[] = [];
  const r = {
    unterminated: false,
    executableComment: false,
    nonAsciiCode: false,
    unicodeEscape: false,
    strayBackslash: false,
  };
  let inExec = false;
  let i = 0;

  const push = (kind: TokenKind, value: string, start: number, end: number) => {
    tokens.push({ kind, value, start, end });
    out.push(text.slice(start, end));
  };

  /** Reads a quoted run from `i` (at the opening quote); returns content and the end index. */
  const quoted = (open: number, close: string, backslash: boolean): { content: string; end: number } => {
    let j = open + 1;
    let content = '';
    while (j < n) {
      const c = text[j];
      if (backslash && c === '\\' && j + 1 < n) {
        content += text[j + 1];
        j += 2;
      } else if (c === close) {
        if (text[j + 1] === close) {
          content += close;
          j += 2;
        } else {
          return { content, end: j + 1 };
        }
      } else {
        content += c;
        j++;
      }
    }
    r.unterminated = true;
    return { content, end: n };
  };

  while (i < n) {
    const c = text[i];
    const next = text[i + 1] ?? '';
    if (/\s/.test(c)) {
      if (c.charCodeAt(0) > 127) r.nonAsciiCode = true;
      out.push(' ');
      i++;
      continue;
    }
    // Line comments.
    const dashComment =
      c === '-' && next === '-' && (!o.dashNeedsSpace || i + 2 >= n || text.charCodeAt(i + 2) <= 32);
    if (dashComment || (o.hashComments && c === '#') || (o.slashSlashComments && c === '/' && next === '/')) {
      const from = i + (c === '#' ? 1 : 2);
      let end = from;
      while (end < n && text[end] !== '\n' && text[end] !== '\r') end++;
      comments.push(text.slice(from, end));
      out.push(' ');
      i = end;
      continue;
    }
    if (c === '/' && next === '*') {
      const exec =
        o.executableComments && (text[i + 2] === '!' || (text[i + 2] === 'M' && text[i + 3] === '!'));
      if (exec && !inExec) {
        r.executableComment = true;
        inExec = true;
        i += text[i + 2] === '!' ? 3 : 4;
        while (i < n && isDigit(text[i])) i++;
        out.push(' ');
        continue;
      }
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (text[j] === '*' && text[j + 1] === '/') {
          depth--;
          j += 2;
        } else if (o.nestedComments && text[j] === '/' && text[j + 1] === '*') {
          depth++;
          j += 2;
        } else {
          j++;
        }
      }
      if (depth > 0) r.unterminated = true;
      comments.push(text.slice(i + 2, depth > 0 ? n : j - 2));
      out.push(' ');
      i = j;
      continue;
    }
    if (inExec && c === '*' && next === '/') {
      inExec = false;
      out.push(' ');
      i += 2;
      continue;
    }
    // Strings and quoted identifiers.
    if (c === "'") {
      const q = quoted(i, "'", o.backslashEscapes);
      push('string', q.content, i, q.end);
      i = q.end;
      continue;
    }
    if (c === '"') {
      const q = quoted(i, '"', o.doubleQuoteStrings && o.backslashEscapes);
      push(o.doubleQuoteStrings ? 'string' : 'qident', q.content, i, q.end);
      i = q.end;
      continue;
    }
    if (c === '`' && o.backtickIdentifiers) {
      const q = quoted(i, '`', false);
      push('qident', q.content, i, q.end);
      i = q.end;
      continue;
    }
    if (c === '[' && o.bracketIdentifiers) {
      const q = quoted(i, ']', false);
      push('qident', q.content, i, q.end);
      if (o.bracketsAsQuotes) out[out.length - 1] = `"${q.content.replaceAll('"', '""')}"`;
      i = q.end;
      continue;
    }
    if (c === '$' && o.dollarQuotes && !(i > 0 && isWordChar(text[i - 1]))) {
      const tag = DOLLAR_TAG.exec(text.slice(i, i + 64))?.[0];
      if (tag) {
        const close = text.indexOf(tag, i + tag.length);
        const end = close < 0 ? n : close + tag.length;
        if (close < 0) r.unterminated = true;
        const body = text.slice(i + tag.length, close < 0 ? n : close);
        dollarBodies.push(body);
        push('string', body, i, end);
        i = end;
        continue;
      }
    }
    if (isDigit(c) || (c === '.' && isDigit(next))) {
      const m = NUMBER.exec(text.slice(i, i + 128));
      const end = i + (m ? m[0].length : 1);
      push('number', text.slice(i, end), i, end);
      i = end;
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(text[j])) j++;
      const word = text.slice(i, j);
      if ([...word].some((ch) => ch.charCodeAt(0) > 127)) r.nonAsciiCode = true;
      const up = word.toUpperCase();
      // Prefixed literals: E'…' (escapes), U&'…' / U&"…" (unicode escapes), Oracle q'[…]'.
      if (o.eStrings && up === 'E' && text[j] === "'") {
        const q = quoted(j, "'", true);
        push('string', q.content, i, q.end);
        i = q.end;
        continue;
      }
      if (up === 'U' && text[j] === '&' && (text[j + 1] === "'" || text[j + 1] === '"')) {
        r.unicodeEscape = true;
        const q = quoted(j + 1, text[j + 1], false);
        push(text[j + 1] === "'" ? 'string' : 'qident', q.content, i, q.end);
        i = q.end;
        continue;
      }
      if (o.qQuotes && (up === 'Q' || up === 'NQ') && text[j] === "'" && j + 1 < n) {
        const open = text[j + 1];
        const close = `${Q_CLOSERS[open] ?? open}'`;
        const at = text.indexOf(close, j + 2);
        const end = at < 0 ? n : at + 2;
        if (at < 0) r.unterminated = true;
        push('string', text.slice(j + 2, at < 0 ? n : at), i, end);
        i = end;
        continue;
      }
      push('word', up, i, j);
      i = j;
      continue;
    }
    if (
      c === '@' ||
      (c === ':' && isWordStart(next) && text[i - 1] !== ':') ||
      (c === '$' && isDigit(next))
    ) {
      let j = i + 1;
      while (j < n && (text[j] === '@' || isWordChar(text[j]))) j++;
      push('param', text.slice(i, j), i, j);
      i = j;
      continue;
    }
    if (c === ';') {
      push('semi', ';', i, i + 1);
      i++;
      continue;
    }
    if (c === '\\') r.strayBackslash = true;
    // `1--1` is arithmetic in MySQL; keep the two minus signs apart so no other reader sees a comment.
    if (c === '-' && next === '-') {
      push('op', '-', i, i + 1);
      out.push(' ');
      i++;
      continue;
    }
    push(c === '?' ? 'param' : 'op', c, i, i + 1);
    i++;
  }
  if (inExec) r.unterminated = true;
  return { tokens, comments, dollarBodies, ...r, normalized: out.join('') };
}

/** The words and separators of a lexical reading, for comparing readings. */
export function signature(result: LexResult): string {
  return result.tokens
    .filter((t) => t.kind === 'word' || t.kind === 'semi')
    .map((t) => t.value)
    .join(' ');
}
