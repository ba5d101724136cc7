// The live log of a run: one tab per job run (every attempt), the selected one virtualized so 200,000 lines
// scroll like 200 (only rows on screen are in the DOM), ANSI colours, collapsible `::group::` sections,
// follow/unfollow of the tail, search with next/previous, a link to every line (`?job=<id>#L<seq>`),
// optional timestamps, stderr marked, and the raw text for download. Lines come from lib/log-stream.ts.
import { Button, type ListVirtualizer, Tabs, useShortcut, VirtualList } from '@app/web-kit';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { JobRun, RunDetail } from '../api/types';
import { renderAnsi } from '../lib/ansi';
import { matrixText } from '../lib/format';
import { keepInView } from '../lib/keep-in-view';
import { type JobLogBuffer, RowIndex } from '../lib/log-buffer';
import { useRunLogs } from '../lib/log-stream';
import { navigate, useLocation } from '../lib/router';

const ROW = 18;

function label(job: JobRun): string {
  const m = matrixText(job.matrix);
  return `${job.name}${m ? ` [${m}]` : ''}${job.attempt > 1 ? ` (attempt ${job.attempt})` : ''}`;
}

function clock(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(11, 23);
}

export function LogViewer({ run }: { run: RunDetail }) {
  const { search, hash } = useLocation();
  const logs = useRunLogs(run.id, run.status);
  const jobs = useMemo(() => run.stages.flatMap((s) => s.jobs), [run.stages]);
  const linked = search.get('job');
  const [selected, setSelected] = useState<string | null>(linked);
  // A link or a click on the graph names a job in the address: show it.
  useEffect(() => {
    if (linked) setSelected(linked);
  }, [linked]);
  const withLines = jobs.filter((j) => logs.buffers.has(j.id));
  const current =
    (selected && jobs.find((j) => j.id === selected)) ||
    withLines.find((j) => j.status === 'running') ||
    withLines.find((j) => j.status === 'failed') ||
    withLines[0] ||
    null;
  const buf = current ? logs.buffers.get(current.id) : undefined;
  const stateText = { live: 'live', ended: 'complete', failed: 'disconnected', connecting: 'connecting…' }[
    logs.state
  ];

  return (
    <section className="panel" aria-labelledby="logs-title">
      <h2 id="logs-title">
        Logs{' '}
        <span className={`stream-state stream-${logs.state}`} role="status">
          {stateText}
        </span>
        {logs.state === 'failed' && (
          <Button size="sm" onClick={() => logs.reconnect()}>
            Reconnect
          </Button>
        )}
      </h2>
      {jobs.length > 0 && (
        <Tabs
          label="Job logs"
          value={current?.id ?? ''}
          onChange={(id) => setSelected(id)}
          items={jobs.map((j) => ({
            id: j.id,
            label: (
              <>
                <span className={`dot dot-${j.status}`} aria-hidden="true" />
                {label(j)}
              </>
            ),
            extra: (
              <span className="muted small">
                {(logs.buffers.get(j.id)?.length ?? 0).toLocaleString('en')}
              </span>
            ),
          }))}
        />
      )}
      {!buf || !current ? (
        <p className="muted">
          {logs.state === 'ended'
            ? 'This run wrote no log lines.'
            : 'No log lines yet; they appear here as jobs run.'}
        </p>
      ) : (
        <JobLog
          key={current.id}
          job={current}
          buf={buf}
          version={logs.version}
          target={
            search.get('job') === current.id && /^#?L\d+$/.test(hash)
              ? Number(hash.replace(/^#?L/, ''))
              : null
          }
          linkTo={(seq) => navigate(`/runs/${run.id}?job=${current.id}#L${seq}`, { replace: true })}
        />
      )}
    </section>
  );
}

interface JobLogProps {
  job: JobRun;
  buf: JobLogBuffer;
  version: number;
  /** The seq of a linked line to show (from the address). */
  target: number | null;
  linkTo(seq: number): void;
}

function JobLog({ job, buf, version, target, linkTo }: JobLogProps) {
  const virtualizer = useRef<ListVirtualizer | null>(null);
  const rows = useRef(new RowIndex());
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [follow, setFollow] = useState(target === null);
  const [times, setTimes] = useState(false);
  const [query, setQuery] = useState('');
  const [hit, setHit] = useState(-1);
  const searchBox = useRef<HTMLInputElement>(null);
  const matches = useRef({ needle: '', lines: [] as number[], scanned: 0 });
  const shownTarget = useRef<number | null>(null);
  // Stops keeping the log on screen for a linked line (the reader took over, or this log is gone).
  const unpin = useRef<(() => void) | null>(null);
  useEffect(() => () => unpin.current?.(), []);
  // Where the list was last scrolled to: only a scroll upwards (the reader's) stops following, never the
  // list growing under a programmatic scroll to the tail.
  const lastTop = useRef(0);

  // Derived from the buffer on every render (cheap: both only look at lines they have not seen).
  rows.current.update(buf, collapsed);
  // Lines keep arriving between this render and its effects; the effects only look at what was indexed here.
  const indexed = buf.length;
  const needle = query.trim().toLowerCase();
  const m = matches.current;
  if (m.needle !== needle) {
    m.needle = needle;
    m.lines = [];
    m.scanned = 0;
  }
  if (m.scanned < buf.length) {
    buf.search(needle, m.scanned, m.lines);
    m.scanned = buf.length;
  }
  const count = rows.current.length;
  const hitLine = hit >= 0 && hit < m.lines.length ? m.lines[hit] : -1;

  // Follow the tail as lines arrive.
  useEffect(() => {
    void version;
    if (follow && count > 0) virtualizer.current?.scrollToIndex(count - 1, { align: 'end' });
  }, [version, follow, count]);

  // A linked line: show it once it has arrived.
  useEffect(() => {
    void version;
    if (target === null || shownTarget.current === target) return;
    const line = buf.indexOfSeq(target);
    if (line < 0 || line >= indexed) return;
    shownTarget.current = target;
    reveal(line, true);
  });

  /**
   * Scrolls the list to a line (centred), unfolding its section. For a linked line the log itself is also
   * brought to the middle of the window and kept there while the page settles: a run page opens at its top,
   * the log below the graph and the jobs, so the line would otherwise be marked below the fold.
   */
  function reveal(line: number, onPage = false) {
    const g = buf.groupOf[line];
    if (g >= 0 && collapsed.has(g) && !buf.isGroupHeader(line)) {
      const next = new Set(collapsed);
      next.delete(g);
      setCollapsed(next);
      rows.current.update(buf, next);
    }
    setFollow(false);
    const row = rows.current.rowOf(line);
    if (row < 0) return;
    requestAnimationFrame(() => {
      const list = virtualizer.current;
      list?.scrollToIndex(row, { align: 'center' });
      if (onPage && list?.scrollElement) {
        unpin.current?.();
        unpin.current = keepInView(list.scrollElement);
      }
    });
  }

  function go(delta: number) {
    if (m.lines.length === 0) return;
    const next =
      hit < 0 ? (delta > 0 ? 0 : m.lines.length - 1) : (hit + delta + m.lines.length) % m.lines.length;
    setHit(next);
    reveal(m.lines[next]);
  }

  function toggleGroup(g: number) {
    const next = new Set(collapsed);
    if (next.has(g)) next.delete(g);
    else next.add(g);
    setCollapsed(next);
  }

  function download() {
    const url = URL.createObjectURL(new Blob([buf.toText()], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${job.name}-attempt-${job.attempt}.log`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  useShortcut('/', 'Search the log', () => searchBox.current?.focus(), { group: 'Log' });
  useShortcut('f', 'Follow the log on or off', () => setFollow((f) => !f), { group: 'Log' });
  useShortcut('t', 'Show or hide timestamps', () => setTimes((t) => !t), { group: 'Log' });
  useShortcut('n', 'Next search hit', () => go(1), { group: 'Log' });
  useShortcut('N', 'Previous search hit', () => go(-1), { group: 'Log' });

  const renderRow = (row: number) => {
    const i = rows.current.rows[row];
    const seq = buf.seqs[i];
    const header = buf.isGroupHeader(i);
    const g = buf.groupOf[i];
    const cls = ['log-line'];
    if (buf.stderr[i]) cls.push('stderr');
    if (i === hitLine) cls.push('log-hit');
    if (target === seq) cls.push('log-target');
    return (
      <div className={cls.join(' ')}>
        <a
          className="log-seq"
          href={`?job=${job.id}#L${seq}`}
          onClick={(e) => {
            e.preventDefault();
            linkTo(seq);
          }}
        >
          {seq}
        </a>
        {times && <span className="log-time">{clock(buf.ats[i])}</span>}
        {header ? (
          <button
            type="button"
            className="log-group"
            aria-expanded={!collapsed.has(g)}
            onClick={() => toggleGroup(g)}
          >
            {collapsed.has(g) ? '▸' : '▾'} {buf.groups[g].title}
            {collapsed.has(g) && buf.groups[g].end > 0 && (
              <span className="muted"> ({buf.groups[g].end - buf.groups[g].start - 1} lines)</span>
            )}
          </button>
        ) : (
          renderAnsi(buf.texts[i], needle)
        )}
      </div>
    );
  };

  return (
    <div className="log-view">
      <div className="log-toolbar row wrap">
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            go(1);
          }}
        >
          <input
            ref={searchBox}
            type="search"
            aria-label="Search the log"
            placeholder="Search (/)"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setHit(-1);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && e.shiftKey) {
                e.preventDefault();
                go(-1);
              }
            }}
          />
          <Button
            size="sm"
            onClick={() => go(-1)}
            disabled={m.lines.length === 0}
            aria-label="Previous match"
          >
            ↑
          </Button>
          <Button size="sm" type="submit" disabled={m.lines.length === 0} aria-label="Next match">
            ↓
          </Button>
          <span className="small muted" aria-live="polite">
            {needle ? `${hit >= 0 ? hit + 1 : 0} of ${m.lines.length.toLocaleString('en')}` : ''}
          </span>
        </form>
        <span className="grow" />
        <span className="small muted">{buf.length.toLocaleString('en')} lines</span>
        <Button size="sm" aria-pressed={follow} onClick={() => setFollow(!follow)}>
          {follow ? 'Following' : 'Follow'}
        </Button>
        <label className="inline small">
          <input type="checkbox" checked={times} onChange={(e) => setTimes(e.target.checked)} /> Timestamps
        </label>
        {buf.groups.length > 0 && (
          <Button
            size="sm"
            onClick={() =>
              setCollapsed(collapsed.size > 0 ? new Set() : new Set(buf.groups.map((_, gi) => gi)))
            }
          >
            {collapsed.size > 0 ? 'Expand all' : 'Collapse all'}
          </Button>
        )}
        <Button size="sm" onClick={download}>
          Download raw
        </Button>
      </div>
      <VirtualList
        className="log"
        role="log"
        label={`Log of ${label(job)}`}
        count={count}
        rowHeight={ROW}
        overscan={30}
        renderRow={renderRow}
        rowKey={(row) => rows.current.rows[row]}
        virtualizerRef={virtualizer}
        onScroll={(e) => {
          const el = e.currentTarget;
          const up = el.scrollTop < lastTop.current - 1;
          lastTop.current = el.scrollTop;
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < ROW * 2;
          if (up && follow) setFollow(false);
          else if (atBottom && !follow && !up && m.lines.length === 0 && target === null) setFollow(true);
        }}
      />
    </div>
  );
}
