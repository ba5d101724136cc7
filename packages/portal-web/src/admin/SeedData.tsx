// Seed data (`/api/admin/seed-data/*`): pick a PostgreSQL- or MySQL-style datasource, preview the plan (fill
// order, parents, rows per table — editable — and how cycles were broken), queue a run in generate or copy
// mode, then follow its per-table progress until it is done or failed.
import { type FormEvent, useEffect, useState } from 'react';
import { type Answer, apiGet, apiPost, errorText } from '../lib/api';
import { DatasourceSelect, useSqlFamilyDatasources } from './SqlFamilyDatasources';

/** The plan preview and a run, as the server's OpenAPI description gives them. */
type Plan = Answer<'/api/admin/seed-data/plan', 'post'>;
type Run = Answer<'/api/admin/seed-data/{id}'>['run'];

function RunProgress({ runId }: { runId: string }) {
  const [run, setRun] = useState<Run | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const r = (await apiGet('/api/admin/seed-data/{id}', { params: { id: runId } })).run;
        if (stop) return;
        setRun(r);
        if (r.status === 'queued' || r.status === 'running') timer = setTimeout(poll, 1000);
      } catch (err) {
        if (!stop) setProblem(errorText(err));
      }
    };
    void poll();
    return () => {
      stop = true;
      if (timer) clearTimeout(timer);
    };
  }, [runId]);
  if (problem) return <p className="error">{problem}</p>;
  if (!run) return <p>Loading the run…</p>;
  const inserted = run.tables.reduce((n, t) => n + t.inserted, 0);
  const target = run.tables.reduce((n, t) => n + t.target, 0);
  return (
    <section className="card" aria-label="Seed run progress">
      <h3>
        Run <code>{run.id.slice(0, 8)}</code>: <span data-testid="seed-run-status">{run.status}</span>
        {run.sourceName ? ` (copy from ${run.sourceName})` : ''}
      </h3>
      <progress max={Math.max(target, 1)} value={inserted} aria-label="Rows inserted" />
      <p>
        {inserted.toLocaleString()} of {target.toLocaleString()} rows
      </p>
      {run.error ? <p className="error">{run.error}</p> : null}
      <table className="grid" aria-label="Seed run tables">
        <thead>
          <tr>
            <th>Table</th>
            <th>Status</th>
            <th>Inserted</th>
            <th>Target</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {run.tables.map((t) => (
            <tr key={t.name}>
              <td>{t.name}</td>
              <td>{t.status}</td>
              <td>{t.inserted}</td>
              <td>{t.target}</td>
              <td>{t.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function SeedData() {
  const candidates = useSqlFamilyDatasources();
  const [datasourceId, setDatasourceId] = useState('');
  const [schema, setSchema] = useState('');
  const [mode, setMode] = useState<'generate' | 'copy'>('generate');
  const [sourceId, setSourceId] = useState('');
  const [truncate, setTruncate] = useState(false);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [runId, setRunId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = datasourceId || candidates[0]?.id || '';
  const engine = candidates.find((c) => c.id === chosen)?.type;

  const base = () => ({ datasourceId: chosen, ...(schema.trim() ? { schema: schema.trim() } : {}) });

  const preview = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const p = await apiPost('/api/admin/seed-data/plan', base());
      setPlan(p);
      setCounts(Object.fromEntries(p.tables.map((t) => [t.name, t.rows])));
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const r = await apiPost('/api/admin/seed-data/run', {
        ...base(),
        mode,
        truncate,
        ...(mode === 'copy' ? { sourceDatasourceId: sourceId } : { counts }),
      });
      setRunId(r.run.id);
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="seed-data">
      <form className="card" onSubmit={preview} aria-label="Seed data plan">
        <h3>Seed data</h3>
        <p>
          Fills a non-production PostgreSQL- or MySQL-style datasource with realistic rows, parents first.
        </p>
        <div className="form-row">
          <DatasourceSelect candidates={candidates} value={chosen} onChange={setDatasourceId} />
          <label>
            <span>Schema</span>
            <input
              placeholder="the connection's default"
              value={schema}
              onChange={(e) => setSchema(e.target.value)}
            />
          </label>
          <label>
            <span>Mode</span>
            <select value={mode} onChange={(e) => setMode(e.target.value as 'generate' | 'copy')}>
              <option value="generate">generate</option>
              <option value="copy">copy from another datasource</option>
            </select>
          </label>
          {mode === 'copy' ? (
            <label>
              <span>Source</span>
              <select value={sourceId} onChange={(e) => setSourceId(e.target.value)}>
                <option value="">choose…</option>
                {candidates
                  .filter((c) => c.id !== chosen && c.type === engine)
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
              </select>
            </label>
          ) : null}
          <label className="check">
            <input type="checkbox" checked={truncate} onChange={(e) => setTruncate(e.target.checked)} />
            <span>Empty the tables first</span>
          </label>
        </div>
        <button type="submit" disabled={busy || !chosen}>
          Preview plan
        </button>
        {problem ? <p className="error">{problem}</p> : null}
      </form>
      {plan ? (
        <section className="card" aria-label="Seed plan preview">
          <h3>
            Plan for {plan.schema}: {plan.tables.length} tables in fill order
          </h3>
          {plan.notes.length ? (
            <ul className="notes">
              {plan.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
          <table className="grid" aria-label="Seed plan tables">
            <thead>
              <tr>
                <th>#</th>
                <th>Table</th>
                <th>Depends on</th>
                <th>Columns</th>
                <th>Rows</th>
              </tr>
            </thead>
            <tbody>
              {plan.tables.map((t, i) => (
                <tr key={t.name}>
                  <td>{i + 1}</td>
                  <td>
                    {t.name}
                    {t.deferredKeys ? ` (fills ${t.deferredKeys.join(', ')} last)` : ''}
                  </td>
                  <td>{t.dependsOn.join(', ')}</td>
                  <td>{t.columns.length}</td>
                  <td>
                    <input
                      type="number"
                      min={0}
                      max={1000000}
                      aria-label={`Rows for ${t.name}`}
                      value={counts[t.name] ?? t.rows}
                      disabled={mode === 'copy'}
                      onChange={(e) =>
                        setCounts({
                          ...counts,
                          [t.name]: Math.max(0, Math.floor(Number(e.target.value) || 0)),
                        })
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={start} disabled={busy || (mode === 'copy' && !sourceId)}>
            Run seed
          </button>
        </section>
      ) : null}
      {runId ? <RunProgress key={runId} runId={runId} /> : null}
    </div>
  );
}
