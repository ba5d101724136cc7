// A run's test report (GET /api/v1/runs/{id}/tests): totals, the failing cases first with their messages,
// every case with its duration (slowest first after the failures), and each test's history across the
// pipeline's recent runs — a test that both passed and failed there is marked flaky.
import { Badge } from '@app/web-kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api/client';
import type { RunDetail, RunTests } from '../api/types';
import { TERMINAL } from '../api/types';
import { seconds } from '../lib/format';
import { Link } from '../lib/router';
import { ErrorNote, StatusBadge } from './ui';

const CASES = 1000;

/** Test durations are often below a second: show milliseconds there. */
function testDuration(s: number): string {
  return s < 1 ? `${Math.round(s * 1000)} ms` : seconds(s);
}
const HISTORY_RUNS = 10;

type Case = RunTests['cases'][number];
const keyOf = (c: Pick<Case, 'suite' | 'classname' | 'name'>) =>
  `${c.suite}\u0000${c.classname}\u0000${c.name}`;
const outcome = (s: string) => (s === 'error' ? 'failed' : s);

interface HistoryEntry {
  runId: string;
  counter: number;
  status: string;
}

/** Each test's outcomes in the pipeline's recent runs (newest first), this run excluded. */
async function testHistory(run: RunDetail): Promise<Map<string, HistoryEntry[]>> {
  const page = await apiGet('/api/v1/runs', {
    query: { pipeline: run.pipeline_id, limit: HISTORY_RUNS + 1, offset: 0 },
  });
  // Running runs count too: their finished jobs' reports are final.
  const earlier = page.runs.filter((r) => r.id !== run.id).slice(0, HISTORY_RUNS);
  const reports = await Promise.all(
    earlier.map(async (r) => ({
      run: r,
      report: await apiGet('/api/v1/runs/{id}/tests', { params: { id: r.id }, query: { limit: CASES } }),
    })),
  );
  const out = new Map<string, HistoryEntry[]>();
  for (const { run: r, report } of reports)
    for (const c of report.cases) {
      const list = out.get(keyOf(c)) ?? [];
      list.push({ runId: r.id, counter: r.counter, status: outcome(c.status) });
      out.set(keyOf(c), list);
    }
  return out;
}

/**
 * A case's message: its first line (the assertion), and the rest — the stack trace the report carried —
 * folded under "Stack trace" so a long trace does not push the other failures off the screen.
 */
function FailureText({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  const cut = message.indexOf('\n');
  if (cut < 0) return <span>{message}</span>;
  return (
    <>
      <span>{message.slice(0, cut)}</span>
      <details className="trace">
        <summary>Stack trace</summary>
        <pre className="mono small">{message.slice(cut + 1)}</pre>
      </details>
    </>
  );
}

export function TestsPanel({ run }: { run: RunDetail }) {
  const active = !TERMINAL.includes(run.status);
  const tests = useQuery({
    // Keyed by the run's status: reports arrive as jobs end, so each change refetches.
    queryKey: ['tests', run.id, run.status],
    placeholderData: keepPreviousData,
    queryFn: () => apiGet('/api/v1/runs/{id}/tests', { params: { id: run.id }, query: { limit: CASES } }),
    refetchInterval: active ? 5000 : false,
  });
  const hasTests = Boolean(tests.data && tests.data.tests > 0);
  const history = useQuery({
    queryKey: ['test-history', run.pipeline_id, run.id],
    queryFn: () => testHistory(run),
    enabled: hasTests,
    staleTime: 60_000,
  });
  const t = tests.data;
  if (tests.error) return <ErrorNote error={tests.error} title="Test results" />;
  if (!t || t.tests === 0) return null;
  const bad = t.cases.filter((c) => c.status === 'failed' || c.status === 'error');
  const rest = t.cases.filter((c) => c.status !== 'failed' && c.status !== 'error');
  rest.sort((a, b) => b.duration_s - a.duration_s);
  const past = history.data ?? new Map<string, HistoryEntry[]>();
  const isFlaky = (c: Case) => {
    const outcomes = new Set([outcome(c.status), ...(past.get(keyOf(c)) ?? []).map((h) => h.status)]);
    return outcomes.has('passed') && outcomes.has('failed');
  };
  const flaky = t.cases.filter(isFlaky).length;

  const row = (c: Case) => (
    <tr key={`${c.job_run_id}/${keyOf(c)}`}>
      <td>
        <StatusBadge status={c.status === 'error' ? 'failed' : c.status} />
        {isFlaky(c) && (
          <>
            {' '}
            <Badge tone="warning" title="Passed and failed in recent runs of this pipeline">
              flaky
            </Badge>
          </>
        )}
      </td>
      <td className="mono small">
        {c.classname ? `${c.classname}.` : ''}
        {c.name}
      </td>
      <td>{c.job_name}</td>
      <td className="small right">{testDuration(c.duration_s)}</td>
      <td>
        <span className="history" title={`Recent runs of ${c.name}`}>
          {(past.get(keyOf(c)) ?? []).map((h) => (
            <Link
              key={h.runId}
              href={`/runs/${h.runId}`}
              className={`history-cell history-${h.status}`}
              title={`#${h.counter}: ${h.status}`}
            >
              <span className="visually-hidden">
                #{h.counter} {h.status}
              </span>
            </Link>
          ))}
        </span>
      </td>
      <td className="small pre-wrap">
        <FailureText message={c.message} />
      </td>
    </tr>
  );

  const head = (
    <thead>
      <tr>
        <th>Status</th>
        <th>Test</th>
        <th>Job</th>
        <th className="right">Duration</th>
        <th>Recent runs</th>
        <th>Message</th>
      </tr>
    </thead>
  );

  return (
    <section className="panel" aria-labelledby="tests-title">
      <h2 id="tests-title">Tests</h2>
      <ul className="totals" aria-label="Test totals">
        <li>
          <strong>{t.tests}</strong> tests
        </li>
        <li className="ok">
          <strong>{t.passed}</strong> passed
        </li>
        <li className={t.failed ? 'bad' : undefined}>
          <strong>{t.failed}</strong> failed
        </li>
        <li className={t.errors ? 'bad' : undefined}>
          <strong>{t.errors}</strong> errors
        </li>
        <li>
          <strong>{t.skipped}</strong> skipped
        </li>
        <li className={flaky ? 'warn' : 'muted'}>
          <strong>{flaky}</strong> flaky
        </li>
        <li className="muted">{seconds(t.duration_s)}</li>
      </ul>
      {bad.length > 0 && (
        <table className="table compact" aria-label="Failing tests">
          {head}
          <tbody>{bad.map(row)}</tbody>
        </table>
      )}
      {rest.length > 0 && (
        <details open={bad.length === 0}>
          <summary>
            {rest.length} other test{rest.length === 1 ? '' : 's'}, slowest first
          </summary>
          <table className="table compact" aria-label="Other tests">
            {head}
            <tbody>{rest.map(row)}</tbody>
          </table>
        </details>
      )}
      {t.cases_truncated && <p className="muted small">Only the first {CASES} cases are listed.</p>}
    </section>
  );
}
