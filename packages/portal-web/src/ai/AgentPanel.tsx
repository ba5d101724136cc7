// The investigation agent panel beside the editor: an objective (with a suggested workflow from
// /api/agent/classify), a run whose progress streams in (statements, refusals, results, the answer), a
// follow-up question that drives the run on with its one-minute credential, and "Hand over", which replays
// the run's answer statement read-only and can put it in the editor. Only managed datasources have an agent.
import { Button } from '@app/web-kit';
import { useRef, useState } from 'react';
import { type Answer, apiPost, errorFromBody, errorText } from '../lib/api';
import type { Connection } from '../lib/types';
import { readEventStream, type StreamEvent } from './sse';

const WORKFLOWS = ['investigation', 'planning', 'operations', 'performance', 'data-quality'] as const;

/** The run's answer statement replayed read-only, from the server's OpenAPI description. */
type HandoverResult = Answer<'/api/agent/runs/{runId}/handover', 'post'>;

function cell(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function RowsTable({ fields, rows }: { fields: string[]; rows: Array<Record<string, unknown>> }) {
  return (
    <div className="agent-rows">
      <table>
        <thead>
          <tr>
            {fields.map((f) => (
              <th key={f}>{f}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 20).map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
            <tr key={i}>
              {fields.map((f) => (
                <td key={f}>{cell(r[f])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EventView({ e }: { e: StreamEvent }) {
  const d = e.data;
  switch (e.event) {
    case 'operation':
      return (
        <li className="agent-op">
          <span className="badge">{String(d.tool)}</span>{' '}
          {typeof d.statement === 'string' ? <code className="agent-sql">{d.statement}</code> : null}
          {Array.isArray(d.path) ? <span className="muted">{(d.path as string[]).join('.')}</span> : null}
        </li>
      );
    case 'refused':
    case 'failed':
      return (
        <li className="agent-refused" role="alert">
          {e.event === 'refused' ? 'Refused' : 'Failed'}: <strong>{String(d.reason)}</strong> —{' '}
          {String(d.message)}
        </li>
      );
    case 'result':
      return (
        <li className="agent-result">
          <span className="muted small">
            {String(d.rowCount)} row(s) in {String(d.durationMs)} ms
          </span>
          <RowsTable fields={d.fields as string[]} rows={d.rows as Array<Record<string, unknown>>} />
        </li>
      );
    case 'answer':
      return (
        <li className="agent-answer">
          <strong>Answer:</strong> {String(d.text)}
        </li>
      );
    case 'end':
      return (
        <li className={d.status === 'failed' ? 'agent-refused' : 'muted small'}>
          Run {String(d.status)}
          {d.reason ? `: ${String(d.reason)}` : ''}
          {d.message ? ` — ${String(d.message)}` : ''}
        </li>
      );
    default:
      return null;
  }
}

export function AgentPanel({
  config,
  connection,
  onUseSql,
}: {
  config: { enabled: boolean; reason?: string };
  connection: Connection;
  onUseSql: (sql: string) => void;
}) {
  const [objective, setObjective] = useState('');
  const [workflow, setWorkflow] = useState<(typeof WORKFLOWS)[number]>('investigation');
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [runId, setRunId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [followUp, setFollowUp] = useState('');
  const [handover, setHandover] = useState<HandoverResult | null>(null);
  const lastId = useRef(0);

  if (!config.enabled)
    return (
      <aside className="agent-panel compact" aria-label="Investigation agent">
        <h3>Agent</h3>
        <p className="muted small">
          {(config.reason ?? 'The agent is not available').replace(/\.$/, '')}. An administrator turns the
          agent on by configuring an AI provider (docs/portal-ai.md); the editor works without it.
        </p>
      </aside>
    );
  if (!connection.managed)
    return (
      <aside className="agent-panel compact" aria-label="Investigation agent">
        <h3>Agent</h3>
        <p className="muted small">The agent works on managed datasources.</p>
      </aside>
    );

  const streamed = (e: StreamEvent) => {
    lastId.current = Math.max(lastId.current, e.id);
    if (e.event === 'run') setRunId(String(e.data.runId));
    // Text deltas are shown once, as the answer.
    if (e.event !== 'text') setEvents((list) => [...list, e]);
  };
  const follow = async (res: Response) => {
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      throw errorFromBody(res.status, body);
    }
    await readEventStream(res, streamed);
  };
  const guarded = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const suggest = () =>
    guarded(async () => {
      const r = await apiPost('/api/agent/classify', { objective });
      const suggested = WORKFLOWS.find((w) => w === r.workflow);
      if (suggested) setWorkflow(suggested);
    });

  const start = () =>
    guarded(async () => {
      setEvents([]);
      setHandover(null);
      lastId.current = 0;
      const res = await fetch('/api/agent/runs', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ objective, connectionId: connection.id, workflow }),
      });
      await follow(res);
    });

  const lastEnd = [...events].reverse().find((e) => e.event === 'end');
  const credential = (lastEnd?.data.drive as { credential?: string } | undefined)?.credential;

  const drive = () =>
    guarded(async () => {
      await apiPost('/api/agent/drive', { credential, instruction: followUp || undefined });
      setFollowUp('');
      const res = await fetch(`/api/agent/runs/${runId}/events`, {
        credentials: 'same-origin',
        headers: { accept: 'text/event-stream', 'last-event-id': String(lastId.current) },
      });
      await follow(res);
    });

  const handOver = () =>
    guarded(async () => {
      setHandover(await apiPost('/api/agent/runs/{runId}/handover', {}, { params: { runId: runId ?? '' } }));
    });

  const hasStatement = events.some((e) => e.event === 'result');
  return (
    <aside className="agent-panel" aria-label="Investigation agent">
      <h3>Agent</h3>
      <textarea
        aria-label="Agent objective"
        placeholder="What should the agent find out? (it only reads)"
        maxLength={4000}
        rows={3}
        value={objective}
        onChange={(e) => setObjective(e.target.value)}
      />
      <div className="agent-controls">
        <select
          aria-label="Workflow"
          value={workflow}
          onChange={(e) => setWorkflow(e.target.value as typeof workflow)}
        >
          {WORKFLOWS.map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
        <Button size="sm" disabled={busy || !objective.trim()} onClick={suggest}>
          Suggest workflow
        </Button>
        <Button size="sm" variant="primary" disabled={busy || !objective.trim()} onClick={start}>
          {busy ? 'Working…' : 'Start'}
        </Button>
      </div>
      {error && (
        <p className="error-text small" role="alert">
          {error}
        </p>
      )}
      <ol className="agent-events" aria-label="Agent progress">
        {events.map((e) => (
          <EventView key={`${e.id}-${e.event}`} e={e} />
        ))}
      </ol>
      {runId && !busy && lastEnd && (
        <div className="agent-after">
          <Button size="sm" disabled={!hasStatement} onClick={handOver}>
            Hand over
          </Button>
          {credential && (
            <span className="agent-followup">
              <input
                aria-label="Follow-up question"
                placeholder="Follow-up (optional)"
                value={followUp}
                onChange={(e) => setFollowUp(e.target.value)}
              />
              <Button size="sm" onClick={drive}>
                Continue
              </Button>
            </span>
          )}
        </div>
      )}
      {handover && (
        <section className="agent-handover" aria-label="Handed over">
          <code className="agent-sql">{handover.statement}</code>
          <RowsTable fields={handover.fields} rows={handover.rows} />
          <Button size="sm" onClick={() => onUseSql(handover.statement)}>
            Open in editor
          </Button>
        </section>
      )}
    </aside>
  );
}
