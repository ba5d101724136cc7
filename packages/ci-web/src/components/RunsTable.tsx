// A table of run summaries (runs page, project page): status, pipeline and counter, project, cause, ref and
// revision, when it was created and how long it took. Durations of runs still going tick every second.
import { type RunSummary, TERMINAL } from '../api/types';
import { duration, shortSha } from '../lib/format';
import { useNow } from '../lib/now';
import { Link } from '../lib/router';
import { RunStateBadge, RunStateNote } from './RunState';
import { Time } from './ui';

export function runHref(id: string): string {
  return `/runs/${id}`;
}

export function RunsTable({ runs, showProject = true }: { runs: RunSummary[]; showProject?: boolean }) {
  const now = useNow(runs.some((r) => r.started_at && !TERMINAL.includes(r.status)));
  return (
    <table className="table" aria-label="Runs">
      <thead>
        <tr>
          <th>Status</th>
          <th>Run</th>
          {showProject && <th>Project</th>}
          <th>Cause</th>
          <th>Ref</th>
          <th>Created</th>
          <th>Duration</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <RunStateBadge run={r} />
              {(r.waiting || r.superseded_by) && (
                <div className="small">
                  <RunStateNote run={r} />
                </div>
              )}
            </td>
            <td>
              <Link href={runHref(r.id)}>
                {r.pipeline_name} #{r.counter}
              </Link>
            </td>
            {showProject && (
              <td>
                <Link href={`/projects/${encodeURIComponent(r.project_slug)}`}>{r.project_slug}</Link>
              </td>
            )}
            <td>{r.cause.replace(/_/g, ' ')}</td>
            <td className="mono">
              {r.git_ref && r.git_ref !== r.revision ? r.git_ref : ''}
              {r.revision && <span className="muted"> {shortSha(r.revision)}</span>}
            </td>
            <td>
              <Time at={r.created_at} />
            </td>
            <td data-testid="run-duration">
              {r.started_at ? duration(r.started_at, r.finished_at, now) : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
