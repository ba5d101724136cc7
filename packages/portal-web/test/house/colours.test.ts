// House rule: portal-web paints only with the web kit's colour tokens (var(--kit-…), web-kit/src/styles/kit.css),
// so the light and the dark theme both stay whole. A hex, rgb() or hsl() literal in the app's CSS or TSX fails
// here with its file and line; a colour the app needs and the kit lacks becomes a kit token in both themes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Hex colours (#rgb, #rgba, #rrggbb, #rrggbbaa) and rgb()/rgba()/hsl()/hsla() calls. */
const COLOUR = /(?<![\w&])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})(?![\w-])|\b(?:rgba?|hsla?)\(/gi;

function colourLiterals(text: string): { line: number; literal: string }[] {
  const found: { line: number; literal: string }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(COLOUR)) found.push({ line: i + 1, literal: m[0] });
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(css|tsx?)$/.test(name) ? [path] : [];
  });
}

describe('portal-web colours', () => {
  it('recognises the literals it forbids and lets tokens through', () => {
    expect(colourLiterals('a { color: #fff; background: #1d2330aa }').map((f) => f.literal)).toEqual([
      '#fff',
      '#1d2330aa',
    ]);
    expect(colourLiterals('box-shadow: 0 1px 2px rgba(0, 0, 0, 0.1); fill: hsl(10 20% 30%)')).toHaveLength(2);
    expect(colourLiterals("color: var(--kit-text); href='#top'; &#8203; id=#12345")).toEqual([]);
  });

  it('has no hard-coded colour in src/ (CSS and TSX use the web kit tokens)', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      colourLiterals(readFileSync(file, 'utf8')).map((f) => `${relative(SRC, file)}:${f.line} ${f.literal}`),
    );
    expect(offenders).toEqual([]);
  });
});
