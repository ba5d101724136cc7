// The in-page store of one job run's log, built for 200,000+ lines: parallel arrays (text, seq, time,
// stream) instead of an object per line, `::group::`/`::endgroup::` sections recognised as lines arrive,
// an incrementally maintained index of the rows on screen (collapsed sections and end markers left out),
// and a search over the text without ANSI escapes. No React here: the viewer reads it while rendering.

export interface LogGroup {
  /** Index of the `::group::` line (the section's header row). */
  start: number;
  /** Index of the `::endgroup::` line, or -1 while the section is still open. */
  end: number;
  title: string;
}

const GROUP = '::group::';
const END_GROUP = '::endgroup::';
// CSI sequences (colours, cursor moves) and OSC sequences (titles, links) — what `anser` would render.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences is the point
const ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** The text of a line as a reader sees it (escape sequences removed). */
export function plainText(text: string): string {
  return text.includes('\u001b') ? text.replace(ESCAPES, '') : text;
}

export class JobLogBuffer {
  readonly texts: string[] = [];
  readonly seqs: number[] = [];
  readonly ats: number[] = [];
  readonly stderr: boolean[] = [];
  readonly groups: LogGroup[] = [];
  /** group index of each line inside a section (the header's own index too), -1 outside. */
  readonly groupOf: number[] = [];
  private open = -1;
  private lastSeq = -1;

  get length(): number {
    return this.texts.length;
  }

  /** Adds a line; a line whose seq was already seen (a replay after reconnect) is ignored. */
  append(seq: number, text: string, stream: string, at: string): void {
    if (seq <= this.lastSeq) return;
    this.lastSeq = seq;
    const i = this.texts.length;
    this.texts.push(text);
    this.seqs.push(seq);
    this.ats.push(Date.parse(at));
    this.stderr.push(stream === 'stderr');
    const plain = text.startsWith('::') ? text : plainText(text);
    if (plain.startsWith(GROUP)) {
      // A new section closes an open one: sections do not nest (as in GitHub Actions).
      if (this.open >= 0) this.groups[this.open].end = i - 1;
      this.groups.push({ start: i, end: -1, title: plain.slice(GROUP.length).trim() || 'Section' });
      this.open = this.groups.length - 1;
      this.groupOf.push(this.open);
    } else if (plain.startsWith(END_GROUP) && this.open >= 0) {
      this.groups[this.open].end = i;
      this.groupOf.push(this.open);
      this.open = -1;
    } else this.groupOf.push(this.open);
  }

  isEndMarker(i: number): boolean {
    const g = this.groupOf[i];
    return g >= 0 && this.groups[g].end === i && this.groups[g].start !== i;
  }

  isGroupHeader(i: number): boolean {
    const g = this.groupOf[i];
    return g >= 0 && this.groups[g].start === i;
  }

  /** Index of the line with this seq, or -1 (binary search: seqs only grow). */
  indexOfSeq(seq: number): number {
    let lo = 0;
    let hi = this.seqs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.seqs[mid];
      if (v === seq) return mid;
      if (v < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Indices of lines from `from` whose text (without escapes) contains `needle` (lower-cased). */
  search(needle: string, from = 0, into: number[] = []): number[] {
    if (!needle) return into;
    for (let i = from; i < this.texts.length; i++) {
      const t = this.texts[i];
      if (plainText(t).toLowerCase().includes(needle)) into.push(i);
    }
    return into;
  }

  toText(): string {
    return this.texts.join('\n') + (this.texts.length ? '\n' : '');
  }
}

/**
 * The rows on screen: line indices in order, without `::endgroup::` markers and without the body of a
 * collapsed section (its header stays). Appends only look at new lines; a change of the collapsed set
 * rebuilds it (a linear pass, a few milliseconds for 200,000 lines).
 */
export class RowIndex {
  rows = new Int32Array(1024);
  length = 0;
  private seen = 0;
  private key = '';

  update(buf: JobLogBuffer, collapsed: ReadonlySet<number>): void {
    const key = [...collapsed].sort((a, b) => a - b).join(',');
    if (key !== this.key) {
      this.key = key;
      this.length = 0;
      this.seen = 0;
    }
    for (let i = this.seen; i < buf.length; i++) {
      if (buf.isEndMarker(i)) continue;
      const g = buf.groupOf[i];
      if (g >= 0 && collapsed.has(g) && !buf.isGroupHeader(i)) continue;
      if (this.length === this.rows.length) {
        const next = new Int32Array(this.rows.length * 2);
        next.set(this.rows);
        this.rows = next;
      }
      this.rows[this.length++] = i;
    }
    this.seen = buf.length;
  }

  /** The row showing line `line`, or -1 when it is hidden. */
  rowOf(line: number): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.rows[mid];
      if (v === line) return mid;
      if (v < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
