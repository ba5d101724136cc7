// The job's log as it leaves the executor: every line is masked, numbered with a per-job increasing `seq`
// and handed to the LogSink (the connection layer batches and ships them). Process output enters through
// `stream()`, which splits it into bounded lines; the agent's own notes enter through `note()`/`error()`.
import type { Readable } from 'node:stream';
import { MASK, type Masker } from '@app/kit';
import { LineSplitter, MAX_LINE_CHARS } from './lines.js';

export type LogStream = 'stdout' | 'stderr';

export interface LogLine {
  /** 1, 2, 3, ... within one job run attempt. */
  seq: number;
  stream: LogStream;
  text: string;
  /** RFC 3339 timestamp of when the agent read the line. */
  at: string;
}

export type LogSink = (line: LogLine) => void;

/** Answers a promise while the consumer of the log wants the job's output paused (back-pressure). */
export type LogPressure = () => Promise<void> | undefined;

/** How long a line that may continue a secret on the next line is held back at most. */
const HOLD_MS = 50;

interface Held {
  text: string;
  timer: NodeJS.Timeout;
}

/**
 * Terminal escape sequences (CSI such as colours `ESC[31m`, OSC such as titles and links, two-byte ESC
 * sequences). A job can print a secret with colour codes between its characters; the UI renders the codes
 * away and shows the value, so a line is also masked with them removed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is the very character these sequences start with
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Prefix of lines written by the agent itself rather than by the job's processes. */
export const AGENT_PREFIX = '[ci] ';

export class JobLog {
  private seq = 0;
  private readonly held = new Map<LogStream, Held>();
  /** When process output last arrived, and how many followed streams are paused by back-pressure. */
  private lastOutputAt = 0;
  private pausedStreams = 0;

  constructor(
    private readonly sink: LogSink,
    readonly masker: Masker,
    private readonly maxLineChars = MAX_LINE_CHARS,
    private readonly pressure?: LogPressure,
  ) {}

  /** Number of lines emitted so far (the last `seq`). */
  get lines(): number {
    return this.seq;
  }

  write(stream: LogStream, text: string): void {
    let head = '';
    let rest = text;
    const held = this.held.get(stream);
    if (held) {
      this.held.delete(stream);
      clearTimeout(held.timer);
      const split = this.masker.splitParts(held.text, text);
      if (split) {
        this.emit(stream, `${this.maskLine(held.text.slice(0, split.firstFrom))}${MASK}`);
        head = MASK;
        rest = text.slice(split.secondTo);
      } else this.emit(stream, this.maskLine(held.text));
    }
    if (this.masker.active && head === '' && this.masker.mayContinue(rest)) {
      const timer = setTimeout(() => this.release(stream), HOLD_MS);
      timer.unref?.();
      this.held.set(stream, { text: rest, timer });
      return;
    }
    this.emit(stream, head + this.maskLine(rest));
  }

  /**
   * The line masked as it is and, when it holds escape sequences, as it shows: if removing them reveals a
   * secret form, the line is emitted without its escape sequences (it loses its colours, not the mask).
   */
  private maskLine(text: string): string {
    const masked = this.masker.mask(text);
    if (!this.masker.active || !text.includes('\x1b')) return masked;
    const shown = masked.replace(ANSI, '');
    const remasked = this.masker.mask(shown);
    return remasked === shown ? masked : remasked;
  }

  private release(stream: LogStream): void {
    const held = this.held.get(stream);
    if (!held) return;
    this.held.delete(stream);
    clearTimeout(held.timer);
    this.emit(stream, this.maskLine(held.text));
  }

  /** Whether followed output is paused by back-pressure or arrived within the last `withinMs`. */
  outputActive(withinMs: number): boolean {
    return this.pausedStreams > 0 || Date.now() - this.lastOutputAt < withinMs;
  }

  /** Emits the lines held back for a possible continuation (the job's output has ended). */
  flush(): void {
    for (const stream of [...this.held.keys()]) this.release(stream);
  }

  private emit(stream: LogStream, text: string): void {
    this.seq += 1;
    const line: LogLine = { seq: this.seq, stream, text, at: new Date().toISOString() };
    try {
      this.sink(line);
    } catch {
      // A failing sink must not take the job down; the connection layer reports its own errors.
    }
  }

  note(text: string): void {
    for (const l of text.split('\n')) this.write('stdout', AGENT_PREFIX + l);
  }

  error(text: string): void {
    for (const l of text.split('\n')) this.write('stderr', AGENT_PREFIX + l);
  }

  /** A line splitter feeding this log; long lines are cut where no secret straddles the cut. */
  splitter(stream: LogStream, prefix = ''): LineSplitter {
    return new LineSplitter(
      (l) => this.write(stream, prefix + l),
      this.maxLineChars,
      (text, limit) => this.masker.safeCut(text, limit),
    );
  }

  /** Pipes a process stream into the log; resolves when the stream ends (or errors). */
  follow(source: Readable, stream: LogStream, prefix = ''): Promise<void> {
    const lines = this.splitter(stream, prefix);
    source.setEncoding('utf8');
    source.on('data', (chunk: string) => {
      this.lastOutputAt = Date.now();
      lines.push(chunk);
      // Back-pressure: the process blocks on its pipe instead of the agent dropping lines.
      const wait = this.pressure?.();
      if (wait) {
        source.pause();
        this.pausedStreams++;
        void wait.then(() => {
          this.pausedStreams--;
          this.lastOutputAt = Date.now();
          source.resume();
        });
      }
    });
    return new Promise((done) => {
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        lines.end();
        done();
      };
      source.once('end', finish);
      source.once('close', finish);
      source.once('error', finish);
    });
  }
}
