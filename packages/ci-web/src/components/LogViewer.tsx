// Live job logs over Server-Sent Events (GET /api/v1/runs/{id}/logs/stream). Lines are appended per job run
// (each job keeps its newest MAX_LINES; older ones are counted, not kept), rendering is batched per animation
// frame, and the view follows the tail while the reader is at the bottom. The server ends the stream once the
// run is finished; EventSource would then reconnect (resuming by Last-Event-ID), so on every interruption the
// run's status is checked and a finished run's stream is closed for good.
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { api } from '../api/client';
import type { JobRun, LogLine, RunDetail } from '../api/types';
import { TERMINAL } from '../api/types';
import { matrixText } from '../lib/format';

const MAX_LINES = 5000;

interface JobLog {
  lines: LogLine[];
  dropped: number;
}

type StreamState = 'connecting' | 'live' | 'ended' | 'failed';

function label(job: JobRun): string {
  const m = matrixText(job.matrix);
  return `${job.name}${m ? ` [${m}]` : ''}${job.attempt > 1 ? ` (attempt ${job.attempt})` : ''}`;
}

export function LogViewer({ run }: { run: RunDetail }) {
  const logs = useRef(new Map<string, JobLog>());
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [state, setState] = useState<StreamState>('connecting');
  const [attempt, reconnect] = useReducer((n: number) => n + 1, 0);
  const [selected, setSelected] = useState<string | null>(null);
  const pre = useRef<HTMLPreElement>(null);
  const follow = useRef(true);
  const jobs = useMemo(() => run.stages.flatMap((s) => s.jobs), [run.stages]);

  useEffect(() => {
    // `attempt` re-runs this effect when the user asks to reconnect.
    void attempt;
    // A (re)connection replays the whole log from the start.
    logs.current = new Map();
    let frame = 0;
    let closed = false;
    let lastCursor = -1;
    const es = new EventSource(`/api/v1/runs/${run.id}/logs/stream`);
    setState('connecting');
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        redraw();
      });
    };
    es.onopen = () => setState('live');
    es.addEventListener('log', (event) => {
      const e = event as MessageEvent<string>;
      const cursor = Number(e.lastEventId);
      if (Number.isFinite(cursor) && cursor <= lastCursor) return;
      if (Number.isFinite(cursor)) lastCursor = cursor;
      let line: LogLine;
      try {
        line = JSON.parse(e.data) as LogLine;
      } catch {
        return;
      }
      const id = line.job_run_id ?? (line as { job_id?: string }).job_id;
      const log = logs.current.get(id) ?? { lines: [], dropped: 0 };
      log.lines.push(line);
      if (log.lines.length > MAX_LINES) {
        const cut = log.lines.length - MAX_LINES;
        log.lines.splice(0, cut);
        log.dropped += cut;
      }
      logs.current.set(id, log);
      schedule();
    });
    es.onerror = () => {
      if (closed) return;
      if (es.readyState === EventSource.CLOSED) {
        setState('failed');
        return;
      }
      // Interrupted: finished (close for good) or a network blip (let EventSource resume).
      api
        .get<RunDetail>(`/api/v1/runs/${run.id}?logs=0`)
        .then((r) => {
          if (closed) return;
          if (TERMINAL.includes(r.status)) {
            es.close();
            setState('ended');
          } else setState('connecting');
        })
        .catch(() => {
          if (!closed) setState('connecting');
        });
    };
    return () => {
      closed = true;
      es.close();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [run.id, attempt]);

  // A job rerun makes a finished run active again: follow it once more.
  useEffect(() => {
    if (state === 'ended' && !TERMINAL.includes(run.status)) reconnect();
  }, [state, run.status]);

  // Keep the tail in view while following.
  useEffect(() => {
    const el = pre.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  });

  const withLines = jobs.filter((j) => logs.current.has(j.id));
  const current =
    (selected && jobs.find((j) => j.id === selected)) ||
    withLines.find((j) => j.status === 'running') ||
    withLines.find((j) => j.status === 'failed') ||
    withLines[0] ||
    null;
  const log = current ? logs.current.get(current.id) : undefined;

  return (
    <section className="panel" aria-labelledby="logs-title">
      <h2 id="logs-title">
        Logs{' '}
        <span className={`stream-state stream-${state}`} role="status">
          {state === 'live'
            ? 'live'
            : state === 'ended'
              ? 'complete'
              : state === 'failed'
                ? 'disconnected'
                : 'connecting…'}
        </span>
        {state === 'failed' && (
          <button type="button" className="small-button" onClick={() => reconnect()}>
            Reconnect
          </button>
        )}
      </h2>
      {jobs.length > 0 && (
        <div className="tabs" role="tablist" aria-label="Job logs">
          {jobs.map((j) => (
            <button
              key={j.id}
              type="button"
              role="tab"
              aria-selected={current?.id === j.id}
              className={current?.id === j.id ? 'tab active' : 'tab'}
              onClick={() => {
                setSelected(j.id);
                follow.current = true;
              }}
            >
              <span className={`dot dot-${j.status}`} aria-hidden="true" />
              {label(j)}
              <span className="muted small"> {logs.current.get(j.id)?.lines.length ?? 0}</span>
            </button>
          ))}
        </div>
      )}
      {!log ? (
        <p className="muted">
          {state === 'ended'
            ? 'This run wrote no log lines.'
            : 'No log lines yet; they appear here as jobs run.'}
        </p>
      ) : (
        <pre
          ref={pre}
          className="log"
          role="log"
          aria-label={`Log of ${current ? label(current) : ''}`}
          onScroll={(e) => {
            const el = e.currentTarget;
            follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
          }}
        >
          {log.dropped > 0 && <div className="log-note">… {log.dropped} earlier lines not shown</div>}
          {log.lines.map((l) => (
            <div key={l.seq} className={l.stream === 'stderr' ? 'log-line stderr' : 'log-line'}>
              <span className="log-seq">{l.seq}</span>
              {l.text}
            </div>
          ))}
        </pre>
      )}
    </section>
  );
}
