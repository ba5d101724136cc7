// The CSV reader of table imports: an incremental RFC 4180 parser fed text chunks as they arrive, so a
// file of any size is read in bounded memory (only the record being read is held). Fields may be quoted
// with the configured quote character (a doubled quote inside is one quote; quoted fields may span lines);
// records end at LF, CRLF or CR. Each record carries the line it starts on, for error reports.

export interface CsvOptions {
  /** One character; default `,`. */
  delimiter: string;
  /** One character; default `"`. */
  quote: string;
}

export interface CsvRecord {
  /** 1-based line of the file the record starts on. */
  line: number;
  fields: string[];
  /** Which fields were quoted (an empty quoted field is an empty string, never NULL). */
  quoted: boolean[];
}

/** A record whose text cannot be a CSV record (a quote in the middle of an unquoted field is accepted). */
export class CsvError extends Error {}

const LF = 10;
const CR = 13;

export class CsvParser {
  private readonly delim: number;
  private readonly quote: number;
  private fields: string[] = [];
  private quoted: boolean[] = [];
  private field = '';
  private fieldQuoted = false;
  /** 0: start of field, 1: unquoted field, 2: inside quotes, 3: quote seen inside quotes. */
  private state = 0;
  private line = 1;
  private recordLine = 1;
  private pendingCr = false;
  /** Characters held for one record: a runaway quote must not read the whole file into one field. */
  private held = 0;

  constructor(
    options: CsvOptions,
    private readonly maxRecordChars = 16 * 1024 * 1024,
  ) {
    if (options.delimiter.length !== 1 || options.quote.length !== 1)
      throw new CsvError('delimiter and quote are one character each');
    if (options.delimiter === options.quote) throw new CsvError('delimiter and quote must differ');
    if (/[\r\n]/.test(options.delimiter + options.quote))
      throw new CsvError('delimiter and quote cannot be line breaks');
    this.delim = options.delimiter.charCodeAt(0);
    this.quote = options.quote.charCodeAt(0);
  }

  /** Records completed by this chunk. */
  push(chunk: string, out: CsvRecord[] = []): CsvRecord[] {
    let start = 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (this.pendingCr) {
        this.pendingCr = false;
        if (c === LF) {
          start = i + 1;
          continue;
        }
      }
      switch (this.state) {
        case 0:
          if (c === this.quote) {
            this.state = 2;
            this.fieldQuoted = true;
            start = i + 1;
          } else if (c === this.delim) {
            this.endField();
            start = i + 1;
          } else if (c === LF || c === CR) {
            this.endRecord(out, c);
            start = i + 1;
          } else {
            this.state = 1;
            start = i;
          }
          break;
        case 1: {
          // Fast path: run to the next delimiter or line break.
          let j = i;
          while (j < n) {
            const d = chunk.charCodeAt(j);
            if (d === this.delim || d === LF || d === CR) break;
            j++;
          }
          this.field += chunk.slice(start, j);
          if (j === n) {
            i = n;
            start = n;
            break;
          }
          const d = chunk.charCodeAt(j);
          i = j;
          start = j + 1;
          if (d === this.delim) {
            this.endField();
            this.state = 0;
          } else {
            this.endRecord(out, d);
          }
          break;
        }
        case 2: {
          const j = chunk.indexOf(String.fromCharCode(this.quote), i);
          const stop = j === -1 ? n : j;
          const text = chunk.slice(start, stop);
          this.countLines(text);
          this.field += text;
          if (j === -1) {
            i = n;
            start = n;
          } else {
            i = j;
            this.state = 3;
            start = j + 1;
          }
          break;
        }
        case 3:
          if (c === this.quote) {
            this.field += chunk[i];
            this.state = 2;
            start = i + 1;
          } else if (c === this.delim) {
            this.endField();
            this.state = 0;
            start = i + 1;
          } else if (c === LF || c === CR) {
            this.endRecord(out, c);
            start = i + 1;
          } else {
            // Text after a closing quote ("ab"cd): kept, as most readers do.
            this.field += chunk[i];
            this.state = 1;
            start = i + 1;
          }
          break;
      }
      this.held = this.field.length;
      if (this.held > this.maxRecordChars)
        throw new CsvError(
          `line ${this.recordLine}: a field is longer than ${this.maxRecordChars} characters (an unclosed quote?)`,
        );
    }
    // An unquoted field begun by the chunk's last character.
    if (this.state === 1 && start < n) this.field += chunk.slice(start, n);
    return out;
  }

  /** The last record when the file does not end with a line break. */
  end(out: CsvRecord[] = []): CsvRecord[] {
    if (this.state === 2)
      throw new CsvError(`line ${this.recordLine}: a quoted field is not closed before the end of the file`);
    if (this.state !== 0 || this.fields.length > 0 || this.fieldQuoted) this.endRecord(out, -1);
    return out;
  }

  private countLines(text: string): void {
    for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) this.line++;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.quoted.push(this.fieldQuoted);
    this.field = '';
    this.fieldQuoted = false;
  }

  private endRecord(out: CsvRecord[], terminator: number): void {
    this.endField();
    // A blank line (one empty unquoted field) is no record.
    if (!(this.fields.length === 1 && this.fields[0] === '' && !this.quoted[0]))
      out.push({ line: this.recordLine, fields: this.fields, quoted: this.quoted });
    this.fields = [];
    this.quoted = [];
    this.state = 0;
    if (terminator === CR) this.pendingCr = true;
    if (terminator === LF || terminator === CR) this.line++;
    this.recordLine = this.line;
  }
}
