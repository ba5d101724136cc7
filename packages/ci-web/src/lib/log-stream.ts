// A run's live log over Server-Sent Events (GET /api/v1/runs/{id}/logs/stream) into one JobLogBuffer per job
// run. Each event is one line with `id: <cursor>`; a network blip is resumed by EventSource itself with
// Last-Event-ID. The server's last event is `event: end` once the run is over (and a reconnect after it is a
// 204, which stops EventSource by itself); the stream is closed at `end`, and any other interruption checks
// the run's status. Listeners are told at most once per animation frame however many lines arrived.
import { useEffect, useReducer, useRef, useState } from 'react';
import { apiGet } from '../api/client';
import { TERMINAL } from '../api/types';
import { JobLogBuffer } from './log-buffer';

export type StreamState = 'connecting' | 'live' | 'ended' | 'failed';

interface WireLine {
  job_run_id?: string;
  job_id?: string;
  seq: number;
  stream: string;
  at: string;
  text: string;
}

export interface RunLogs {
  buffers: Map<string, JobLogBuffer>;
  /** Grows whenever lines arrived (once per frame at most). */
  version: number;
  state: StreamState;
  reconnect(): void;
}

export function useRunLogs(runId: string, runStatus: string): RunLogs {
  const buffers = useRef(new Map<string, JobLogBuffer>());
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const [state, setState] = useState<StreamState>('connecting');
  const [generation, reconnect] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    void generation; // a new generation is a fresh connection (manual reconnect or a rerun)
    let frame = 0;
    let closed = false;
    let lastCursor = -1;
    const es = new EventSource(`/api/v1/runs/${encodeURIComponent(runId)}/logs/stream`);
    setState('connecting');
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        bump();
      });
    };
    es.onopen = () => setState('live');
    es.addEventListener('log', (event) => {
      const e = event as MessageEvent<string>;
      const cursor = Number(e.lastEventId);
      if (Number.isFinite(cursor) && e.lastEventId !== '') {
        if (cursor <= lastCursor) return;
        lastCursor = cursor;
      }
      let line: WireLine;
      try {
        line = JSON.parse(e.data) as WireLine;
      } catch {
        return;
      }
      const id = line.job_run_id ?? line.job_id;
      if (!id) return;
      let buf = buffers.current.get(id);
      if (!buf) {
        buf = new JobLogBuffer();
        buffers.current.set(id, buf);
      }
      buf.append(line.seq, line.text, line.stream, line.at);
      schedule();
    });
    es.addEventListener('end', () => {
      es.close();
      setState('ended');
    });
    es.onerror = () => {
      if (closed) return;
      if (es.readyState === EventSource.CLOSED) {
        setState('failed');
        return;
      }
      apiGet('/api/v1/runs/{id}', { params: { id: runId }, query: { logs: 0 } })
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
  }, [runId, generation]);

  // A job rerun makes a finished run active again: follow it once more (buffers skip lines already held).
  useEffect(() => {
    if (state === 'ended' && !TERMINAL.includes(runStatus)) reconnect();
  }, [state, runStatus]);

  return { buffers: buffers.current, version, state, reconnect };
}
