// What a pipeline is, as the pipeline page shows it: its stages in order, what starts it (materials and
// gocdnext's `when`), its declared parameters with their defaults, its concurrency, and its jobs (stage, kind,
// needs, image or plugin, matrix size). Read from the project's detail; the YAML itself stays with Apply.
import type { ProjectDetail } from '../api/types';
import { materialText } from '../lib/materials';

type Pipeline = ProjectDetail['pipelines'][number];

const CONCURRENCY: Record<string, string> = {
  serial: 'serial — one run at a time, the others queue',
  'cancel-superseded': 'cancel-superseded — a newer run of the same branch cancels the older',
};

function whenText(w: NonNullable<Pipeline['when']>): string[] {
  const out: string[] = [];
  if (w.event.length > 0) out.push(`on ${w.event.join(', ')}`);
  if (w.branch.length > 0) out.push(`branches ${w.branch.join(', ')}`);
  if (w.paths.length > 0) out.push(`when ${w.paths.join(', ')} change`);
  return out;
}

export function PipelineDefinition({ pipeline: p }: { pipeline: Pipeline }) {
  const params = Object.entries(p.parameters);
  const when = p.when ? whenText(p.when) : [];
  return (
    <section className="panel" aria-labelledby="definition-title">
      <h2 id="definition-title">Definition</h2>
      <dl className="facts" aria-label="Pipeline definition">
        <div>
          <dt>Stages</dt>
          <dd data-testid="pipeline-stages">{p.stages.join(' → ')}</dd>
        </div>
        <div>
          <dt>Triggers</dt>
          <dd>
            {p.materials.length === 0 ? (
              <span className="muted">none: started by hand (or as part of Run all)</span>
            ) : (
              p.materials.map((m) => (
                <div key={m.fingerprint} className="mono small">
                  {materialText(m)}
                </div>
              ))
            )}
          </dd>
        </div>
        {when.length > 0 && (
          // gocdnext's `when`: a filter on what the materials above report (a person's trigger is never filtered).
          <div>
            <dt>Runs only</dt>
            <dd>{when.join('; ')}</dd>
          </div>
        )}
        <div>
          <dt>Concurrency</dt>
          <dd>
            {p.concurrency ? (
              <>
                {CONCURRENCY[p.concurrency.mode] ?? p.concurrency.mode}
                {p.concurrency.group && (
                  <span className="muted">
                    {' '}
                    (group <span className="mono">{p.concurrency.group}</span>)
                  </span>
                )}
              </>
            ) : (
              'parallel — runs do not wait for each other'
            )}
          </dd>
        </div>
        <div className="wide">
          <dt>Parameters</dt>
          <dd>
            {params.length === 0 ? (
              <span className="muted">none declared</span>
            ) : (
              params.map(([k, v]) => (
                <span key={k} className="chip mono small">
                  {k}={v === '' ? '(empty)' : v}
                </span>
              ))
            )}
          </dd>
        </div>
      </dl>
      <table className="table compact" aria-label="Jobs">
        <thead>
          <tr>
            <th>Job</th>
            <th>Stage</th>
            <th>Kind</th>
            <th>Needs</th>
            <th>Image or plugin</th>
          </tr>
        </thead>
        <tbody>
          {p.jobs.map((j) => (
            <tr key={j.name}>
              <td className="mono">
                {j.name}
                {j.matrix > 0 && <span className="chip small">matrix ×{j.matrix}</span>}
              </td>
              <td>{j.stage}</td>
              <td>{j.kind === 'gate' ? 'approval gate' : j.kind}</td>
              <td className="mono small">{j.needs.join(', ')}</td>
              <td className="mono small truncate" title={j.image ?? ''}>
                {j.image ?? <span className="muted">{j.kind === 'gate' ? '—' : 'none (sandbox)'}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
