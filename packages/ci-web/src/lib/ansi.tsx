// ANSI colours in log lines, rendered with `anser` (a maintained ANSI parser): an SGR colour becomes a class
// naming it (`ansi-red-fg`, a hook for tests and user styles) and a CSSOM style from the palette in
// styles.css (`var(--ansi-red)`), 24-bit colours a CSSOM style of their own; the page's CSP allows both.
// Parsing happens only for lines on screen that contain an escape, and results are cached per line.
import Anser from 'anser';
import type { CSSProperties, ReactNode } from 'react';

export interface AnsiPart {
  content: string;
  className: string;
  style?: CSSProperties;
}

const cache = new Map<string, AnsiPart[]>();
const CACHE_MAX = 4000;

function colour(value: string | null, kind: 'fg' | 'bg'): { className?: string; style?: CSSProperties } {
  if (!value) return {};
  if (value.includes(',')) {
    const css = `rgb(${value})`;
    return { style: kind === 'fg' ? { color: css } : { backgroundColor: css } };
  }
  // anser's class value is `ansi-<name>` (`ansi-bright-red`); the palette has no separate bright backgrounds.
  const name = value.replace(/^ansi-/, '');
  const css = kind === 'fg' ? `var(--ansi-${name})` : `var(--ansi-bg-${name.replace(/^bright-/, '')})`;
  return { className: `${value}-${kind}`, style: kind === 'fg' ? { color: css } : { backgroundColor: css } };
}

export function ansiParts(text: string): AnsiPart[] {
  const hit = cache.get(text);
  if (hit) return hit;
  const parts = Anser.ansiToJson(text, { use_classes: true, remove_empty: true }).map((p) => {
    const fg = colour(p.fg, 'fg');
    const bg = colour(p.bg, 'bg');
    const classes = [fg.className, bg.className, ...(p.decorations ?? []).map((d) => `ansi-${d}`)];
    return {
      content: p.content,
      className: classes.filter(Boolean).join(' '),
      style: fg.style || bg.style ? { ...fg.style, ...bg.style } : undefined,
    };
  });
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(text, parts);
  return parts;
}

/** `content` with every case-insensitive occurrence of `needle` (lower-cased) wrapped in <mark>. */
export function highlight(content: string, needle: string, keyBase: string): ReactNode {
  if (!needle) return content;
  const lower = content.toLowerCase();
  let at = lower.indexOf(needle);
  if (at < 0) return content;
  const out: ReactNode[] = [];
  let from = 0;
  while (at >= 0) {
    if (at > from) out.push(content.slice(from, at));
    out.push(<mark key={`${keyBase}-${at}`}>{content.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
    at = lower.indexOf(needle, from);
  }
  if (from < content.length) out.push(content.slice(from));
  return out;
}

/** A log line's text: plain when it has no escapes (the common, fast case), else coloured spans. */
export function renderAnsi(text: string, needle: string): ReactNode {
  if (!text.includes('\u001b')) return highlight(text, needle, 'p');
  return ansiParts(text).map((p, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: parts of one line never reorder
    <span key={i} className={p.className || undefined} style={p.style}>
      {highlight(p.content, needle, String(i))}
    </span>
  ));
}
