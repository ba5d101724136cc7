// A run's unit-test results (GET /api/v1/runs/{id}/tests): totals, and the failing cases with their
// messages (the server lists failures and errors first).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { RunTests } from '../api/types';
import { TERMINAL } from '../api/types';
import { seconds } from '../lib/format';
import { ErrorNote, StatusBadge } from './ui';

const CASES = 200;

export function TestsPanel({ runId, status }: { runId: string; status: string }) {
  const active = !TERMINAL.includes(status);
  const tests = useQuery({
    // Keyed by the run's status: reports and artifacts arrive as jobs end, so each change refetches.
    queryKey: ['tests', runId, status],
    placeholderData: keepPreviousData,
    queryFn: () => api.get<RunTests>(`/api/v1/runs/${runId}/tests?limit=${CASES}`),
    refetchInterval: active ? 5000 : false,
  });
  const t = tests.data;
  if (tests.error) return <ErrorNote error={tests.error} title="Test results" />;
  if (!t || t.tests === 0) return null;
  const bad = t.cases.filter((c) => c.status === 'failed' || c.status === 'error');
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
        <li className="muted">{seconds(t.duration_s)}</li>
      </ul>
      {bad.length > 0 && (
        <table className="table compact" aria-label="Failing tests">
          <thead>
            <tr>
              <th>Status</th>
              <th>Test</th>
              <th>Job</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {bad.map((c) => (
              <tr key={`${c.job_run_id}/${c.suite}/${c.classname}/${c.name}`}>
                <td>
                  <StatusBadge status={c.status === 'error' ? 'failed' : c.status} />
                </td>
                <td className="mono small">
                  {c.classname ? `${c.classname}.` : ''}
                  {c.name}
                </td>
                <td>{c.job_name}</td>
                <td className="small pre-wrap">{c.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {t.cases_truncated && <p className="muted small">Only the first {CASES} cases are listed.</p>}
    </section>
  );
}
