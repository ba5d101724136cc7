/**
 * Cuts each pipeline's own text out of a bundle, for `GET /api/v1/pipelines/{id}/yaml`.
 *
 * A pipeline is an item of the bundle's `pipelines` list. Its slice runs from the comment lines just above
 * its `-` (those indented less than its content, or any above the first item) to its last line, plus the
 * comment lines after it that are indented like its content. The `-` is blanked and the block is dedented
 * so the slice is a document of its own, comments and layout kept. If the slice does not read back to the
 * same value (say an alias to an anchor defined outside it), the item is serialised instead and flagged.
 */
import { isDeepStrictEqual } from 'node:util';
import { isSeq, type LineCounter, type Node, parseDocument, stringify } from 'yaml';

export interface RawSlice {
  text: string;
  reconstructed: boolean;
}

const isComment = (line: string): boolean => line.trimStart().startsWith('#');
const isBlank = (line: string): boolean => line.trim() === '';
const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * Slices of every item of the sequence `seq` (the bundle's `pipelines` node) of `text`; `values` are the
 * items as plain data (from the whole document, so aliases to outside anchors resolve), to check against.
 */
export function sliceSequenceItems(
  text: string,
  seq: Node,
  lc: LineCounter,
  values: readonly unknown[],
): RawSlice[] {
  if (!isSeq(seq)) return [];
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const lineOf = (offset: number): number => lc.linePos(offset).line - 1;
  const items = seq.items as Node[];
  const layout = items.map((item) => {
    const start = item.range![0];
    const contentCol = lc.linePos(start).col - 1;
    let dash = start - 1;
    while (dash > 0 && text[dash] !== '-' && /\s/.test(text[dash])) dash--;
    return { dashLine: lineOf(dash), contentCol, endLine: lineOf(Math.max(start, item.range![1] - 1)) };
  });
  return items.map((item, i) => {
    const expected = values[i];
    if (seq.flow) return verify(text.slice(item.range![0], item.range![1]), expected);
    const { dashLine, contentCol, endLine } = layout[i];
    let first = dashLine;
    const floor = i === 0 ? -1 : layout[i - 1].endLine;
    const prevCol = i === 0 ? -1 : layout[i - 1].contentCol;
    while (first - 1 > floor && (isComment(lines[first - 1]) || isBlank(lines[first - 1]))) first--;
    // Lines still owned by the previous item (its trailing comments) are not ours.
    while (first < dashLine && prevCol >= 0 && (isBlank(lines[first]) || indentOf(lines[first]) >= prevCol))
      first++;
    while (first < dashLine && isBlank(lines[first])) first++;
    let last = endLine;
    const ceiling = i + 1 < items.length ? layout[i + 1].dashLine : lines.length;
    for (let l = endLine + 1; l < ceiling; l++) {
      if (isComment(lines[l]) && indentOf(lines[l]) >= contentCol) last = l;
      else if (!isBlank(lines[l])) break;
    }
    const out: string[] = [];
    for (let l = first; l <= last; l++) {
      let line = lines[l];
      if (l === dashLine) line = `${line.slice(0, line.indexOf('-'))} ${line.slice(line.indexOf('-') + 1)}`;
      const cut = Math.min(contentCol, indentOf(line));
      line = line.slice(cut);
      if (l === dashLine && line.trim() === '') continue;
      out.push(line);
    }
    return verify(`${out.join('\n')}\n`, expected);
  });
}

function verify(slice: string, expected: unknown): RawSlice {
  try {
    const again = parseDocument(slice);
    if (again.errors.length === 0 && isDeepStrictEqual(again.toJS(), expected)) {
      return { text: slice, reconstructed: false };
    }
  } catch {
    // An alias whose anchor is outside the slice: fall through to serialising.
  }
  return { text: stringify(expected), reconstructed: true };
}
