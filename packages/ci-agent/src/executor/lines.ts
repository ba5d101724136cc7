// Turns a stream of decoded text chunks into lines, with a bound on line length: a process that prints a
// megabyte without a newline produces pieces of at most `limit` characters instead of an unbounded buffer.

export const MAX_LINE_CHARS = 64 * 1024;

/** Chooses where to split an over-long piece; must return a value in [1, limit]. */
export type CutChooser = (text: string, limit: number) => number;

export class LineSplitter {
  private pending = '';

  constructor(
    private readonly emit: (line: string) => void,
    private readonly limit = MAX_LINE_CHARS,
    private readonly chooseCut: CutChooser = (_t, limit) => limit,
  ) {}

  push(chunk: string): void {
    const text = this.pending + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl; // drop the \r of \r\n
      this.pending = '';
      this.complete(text.slice(start, end));
      start = nl + 1;
    }
    this.pending = this.splitLong(text.slice(start));
  }

  /** Flushes a last line that had no newline. */
  end(): void {
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = '';
  }

  private complete(line: string): void {
    const rest = this.splitLong(line);
    this.emit(rest);
  }

  /** Emits full-size pieces of `text` and returns what is left (shorter than or equal to the limit). */
  private splitLong(text: string): string {
    let rest = text;
    while (rest.length > this.limit) {
      const at = Math.min(this.limit, Math.max(1, this.chooseCut(rest, this.limit)));
      this.emit(rest.slice(0, at));
      rest = rest.slice(at);
    }
    return rest;
  }
}
