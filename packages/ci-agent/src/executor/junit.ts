// JUnit XML test reports (spec/pipeline-yaml.md `test_reports`): the files matching the job's globs are
// parsed (root <testsuites> or <testsuite>, nested suites, <testcase> with <failure>, <error>, <skipped>,
// `time`, `classname`, <system-out>) into one report per job, and reports aggregate across files and jobs.
// Counts come from the test cases themselves, not from the suites' attributes, which tools often get wrong.
// A file that is not well-formed JUnit is listed as unreadable; parsing never throws.
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { glob } from 'tinyglobby';

export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestCaseResult {
  suite: string;
  classname: string;
  name: string;
  status: TestStatus;
  duration_s: number;
  /**
   * Failure/error/skip message: the element's `message` attribute, then on the following lines its text (the
   * stack trace pytest, JUnit and jest write there), truncated. Without the attribute, the text alone.
   */
  message?: string;
  /** The test's <system-out>, truncated. */
  system_out?: string;
}

export interface UnreadableReport {
  file: string;
  error: string;
}

export interface TestReport {
  suites: number;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  duration_s: number;
  cases: TestCaseResult[];
  /** Set when more cases existed than are listed (counts are still complete). */
  cases_truncated?: boolean;
  /** Report files that were parsed. */
  files?: string[];
  unreadable?: UnreadableReport[];
}

export const MAX_REPORT_BYTES = 50 * 1024 * 1024;
export const MAX_CASES = 20_000;
/** The control plane keeps 16 KiB of a message: enough for a message and a typical stack trace. */
export const MAX_MESSAGE_CHARS = 16 * 1024 - 32;
export const MAX_SYSTEM_OUT_CHARS = 4 * 1024;

const ARRAYS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
  // Entities of a DOCTYPE are bounded by the parser's defaults; external entities are never fetched.
  processEntities: true,
  // Numeric character references (`&#10;`, `&#233;`, `&#x1F600;`), which pytest writes into messages, are
  // decoded only with this on (it also knows HTML's named entities, harmless in a report).
  htmlEntities: true,
});

type Node = Record<string, any>;

const emptyReport = (): TestReport => ({
  suites: 0,
  tests: 0,
  failures: 0,
  errors: 0,
  skipped: 0,
  duration_s: 0,
  cases: [],
});

function truncate(text: string | undefined, max: number): string | undefined {
  if (text === undefined || text === '') return undefined;
  return text.length > max ? `${text.slice(0, max)}… (truncated)` : text;
}

/** Text content of an element parsed as either a string or an object with `#text`. */
function textOf(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).filter(Boolean).join('\n');
  if (typeof v === 'object') return textOf((v as Node)['#text']);
  return String(v);
}

function seconds(v: unknown): number {
  const n = Number.parseFloat(String(v ?? '').replace(/,/g, ''));
  return Number.isFinite(n) && n >= 0 ? n : 0;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function caseResult(tc: Node, suite: string): TestCaseResult {
  const outcome: [TestStatus, Node | string | undefined] = tc.failure
    ? ['failed', tc.failure[0]]
    : tc.error
      ? ['error', tc.error[0]]
      : tc.skipped
        ? ['skipped', tc.skipped[0]]
        : ['passed', undefined];
  const [status, detail] = outcome;
  let message: string | undefined;
  if (detail !== undefined) {
    const attr = typeof detail === 'object' ? detail['@_message'] : undefined;
    const text = textOf(detail);
    const head = attr === undefined || attr === '' ? undefined : String(attr);
    // The trace follows the message unless it merely repeats it.
    const parts = head && text && text !== head ? [head, text] : [head ?? text];
    message = truncate(parts.filter(Boolean).join('\n'), MAX_MESSAGE_CHARS);
  }
  const result: TestCaseResult = {
    suite,
    classname: String(tc['@_classname'] ?? ''),
    name: String(tc['@_name'] ?? ''),
    status,
    duration_s: round3(seconds(tc['@_time'])),
  };
  if (message) result.message = message;
  const out = truncate(textOf(tc['system-out']), MAX_SYSTEM_OUT_CHARS);
  if (out) result.system_out = out;
  return result;
}

/** Adds a <testsuite> (and the suites nested in it) to `report`. */
function addSuite(suite: Node, report: TestReport, parentName: string): void {
  const name = String(suite['@_name'] ?? parentName ?? '');
  const cases: Node[] = suite.testcase ?? [];
  if (cases.length > 0) {
    report.suites += 1;
    let caseTime = 0;
    for (const tc of cases) {
      const r = caseResult(tc, name);
      caseTime += r.duration_s;
      report.tests += 1;
      if (r.status === 'failed') report.failures += 1;
      else if (r.status === 'error') report.errors += 1;
      else if (r.status === 'skipped') report.skipped += 1;
      if (report.cases.length < MAX_CASES) report.cases.push(r);
      else report.cases_truncated = true;
    }
    // A suite's own time includes set-up and tear-down; fall back to the sum of its cases.
    report.duration_s += suite['@_time'] !== undefined ? seconds(suite['@_time']) : caseTime;
  }
  for (const nested of suite.testsuite ?? []) addSuite(nested, report, name);
}

/** Parses one JUnit XML document; throws on text that is not a JUnit report. */
export function parseJUnitXml(xml: string): TestReport {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  const doc = parser.parse(xml) as Node;
  const report = emptyReport();
  if (doc.testsuites !== undefined) {
    const root = typeof doc.testsuites === 'object' ? doc.testsuites : {};
    for (const s of root.testsuite ?? []) addSuite(s, report, '');
  } else if (doc.testsuite !== undefined) {
    for (const s of doc.testsuite) addSuite(typeof s === 'object' ? s : {}, report, '');
  } else {
    throw new Error('no <testsuites> or <testsuite> root element');
  }
  report.duration_s = round3(report.duration_s);
  return report;
}

/** Parses one report file; an unreadable file becomes an `unreadable` entry instead of an exception. */
export async function parseJUnitFile(path: string, displayName = path): Promise<TestReport> {
  try {
    const info = await stat(path);
    if (info.size > MAX_REPORT_BYTES) throw new Error(`larger than ${MAX_REPORT_BYTES} bytes`);
    const report = parseJUnitXml(await readFile(path, 'utf8'));
    report.files = [displayName];
    return report;
  } catch (err) {
    const report = emptyReport();
    report.unreadable = [{ file: displayName, error: err instanceof Error ? err.message : String(err) }];
    return report;
  }
}

/** Sums reports (of several files, jobs or attempts). */
export function aggregateReports(reports: TestReport[]): TestReport {
  const total = emptyReport();
  for (const r of reports) {
    total.suites += r.suites;
    total.tests += r.tests;
    total.failures += r.failures;
    total.errors += r.errors;
    total.skipped += r.skipped;
    total.duration_s += r.duration_s;
    for (const c of r.cases) {
      if (total.cases.length < MAX_CASES) total.cases.push(c);
      else total.cases_truncated = true;
    }
    if (r.cases_truncated) total.cases_truncated = true;
    if (r.files?.length) total.files = [...(total.files ?? []), ...r.files];
    if (r.unreadable?.length) total.unreadable = [...(total.unreadable ?? []), ...r.unreadable];
  }
  total.duration_s = round3(total.duration_s);
  return total;
}

/** Finds the report files of a job's `test_reports` globs in the checkout and aggregates them. */
export async function collectTestReports(
  checkout: string,
  patterns: string[],
): Promise<TestReport | undefined> {
  const safe = patterns.filter((p) => !p.startsWith('/') && !p.split('/').includes('..'));
  if (safe.length === 0) return undefined;
  const root = await realpath(checkout);
  const files = (await glob(safe, { cwd: root, dot: true, onlyFiles: true })).sort();
  if (files.length === 0) return undefined;
  const reports: TestReport[] = [];
  for (const f of files) {
    // One file at a time (bounded memory); links out of the checkout are not read.
    const real = await realpath(join(root, f)).catch(() => undefined);
    const rel = real ? relative(root, real) : '..';
    if (rel.startsWith('..') || isAbsolute(rel)) {
      reports.push({ ...emptyReport(), unreadable: [{ file: f, error: 'outside the checkout' }] });
      continue;
    }
    reports.push(await parseJUnitFile(real!, f));
  }
  return aggregateReports(reports);
}
