// The table browser's Import dialog (issue 30 item 2): choose a CSV, JSON-lines or SQL file and its format
// options, see the first rows with the type their values look like and map each source field to a column
// (or skip it), then import: the upload's progress, the rows written as the server reports them, and the
// outcome with every failed row and its reason. A held import waits on its approval here and runs the same
// file again the moment a reviewer approves (the approval is for exactly that file).
import { Button } from '@app/web-kit';
import { useEffect, useState } from 'react';
import { ApprovalNotice } from '../governance/ApprovalNotice';
import { ApiError, errorText } from '../lib/api';
import type { Approval, ImportEvent, ImportPreview } from '../lib/types';
import { formatOf, type ImportFormat, type ImportOptions, previewImport, runImport } from './importUpload';

const DELIMITERS: Array<[string, string]> = [
  [',', 'comma'],
  [';', 'semicolon'],
  ['\t', 'tab'],
  ['|', 'pipe'],
];
const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'latin1', 'windows-1252', 'iso-8859-15'];

export function ImportDialog(props: {
  descriptor: Record<string, unknown>;
  path: string[];
  approvalsRequired?: number;
  onImported: () => void;
  onClose: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat>('csv');
  const [delimiter, setDelimiter] = useState(',');
  const [quote, setQuote] = useState('"');
  const [header, setHeader] = useState(true);
  const [encoding, setEncoding] = useState('utf-8');
  const [onError, setOnError] = useState<'skip' | 'stop'>('skip');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  /** Source field → column ('' skips the field). */
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [uploaded, setUploaded] = useState(0);
  const [written, setWritten] = useState<{ rowCount: number; failedCount: number } | null>(null);
  const [done, setDone] = useState<ImportEvent | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [held, setHeld] = useState<{ approval: Approval; message: string; guardrail?: string } | null>(null);

  const base = (): ImportOptions => ({
    connection: props.descriptor,
    path: props.path,
    format,
    encoding,
    delimiter,
    quote,
    header,
    onError,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the preview follows the file and its options
  useEffect(() => {
    if (!file) return;
    let live = true;
    setPreviewError(null);
    previewImport(base(), file)
      .then((p) => {
        if (!live) return;
        setPreview(p);
        setMapping(Object.fromEntries(p.mapping.map((m) => [m.source, m.column])));
      })
      .catch((err) => {
        if (!live) return;
        setPreview(null);
        setPreviewError(errorText(err));
      });
    return () => {
      live = false;
    };
  }, [file, format, delimiter, quote, header, encoding]);

  const chosen = Object.entries(mapping)
    .filter(([, column]) => column !== '')
    .map(([source, column]) => ({ source, column }));

  const start = async () => {
    if (!file) return;
    setRunning(true);
    setDone(null);
    setFailure(null);
    setHeld(null);
    setUploaded(0);
    setWritten(null);
    try {
      const outcome = await runImport({ ...base(), ...(format === 'sql' ? {} : { mapping: chosen }) }, file, {
        uploaded: setUploaded,
        progress: (e) => {
          if (e.type === 'progress')
            setWritten({ rowCount: e.rowCount ?? 0, failedCount: e.failedCount ?? 0 });
        },
      });
      setDone(outcome);
      props.onImported();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'APPROVAL_REQUIRED') {
        const b = err.body as { approval?: Approval; guardrail?: string } | undefined;
        if (b?.approval) setHeld({ approval: b.approval, message: err.message, guardrail: b.guardrail });
      } else setFailure(errorText(err));
    } finally {
      setRunning(false);
    }
  };

  const columns = preview?.columns ?? [];
  const sample = (preview?.rows ?? []).slice(0, 10) as Record<string, unknown>[];
  const mappable = format !== 'sql';
  const ready = file && preview && !running && (mappable ? chosen.length > 0 : !preview.refusal);

  return (
    <div className="review import-dialog" role="dialog" aria-label="Import into table">
      <div className="section-head">
        <h3>Import into {props.path.join('.')}</h3>
        <span className="spacer" />
        <button type="button" className="icon-btn" aria-label="Close import" onClick={props.onClose}>
          ✕
        </button>
      </div>
      <div className="toolbar import-options">
        <label>
          File{' '}
          <input
            type="file"
            aria-label="Import file"
            accept=".csv,.tsv,.txt,.jsonl,.ndjson,.json,.sql"
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              setFile(f);
              setPreview(null);
              setDone(null);
              setFailure(null);
              if (f) {
                setFormat(formatOf(f.name));
                if (f.name.toLowerCase().endsWith('.tsv')) setDelimiter('\t');
              }
            }}
          />
        </label>
        <label>
          Format{' '}
          <select
            aria-label="Format"
            value={format}
            onChange={(e) => setFormat(e.target.value as ImportFormat)}
          >
            <option value="csv">CSV</option>
            <option value="jsonl">JSON lines</option>
            <option value="sql">SQL script (INSERTs)</option>
          </select>
        </label>
        {format === 'csv' && (
          <>
            <label>
              Delimiter{' '}
              <select aria-label="Delimiter" value={delimiter} onChange={(e) => setDelimiter(e.target.value)}>
                {DELIMITERS.map(([d, name]) => (
                  <option key={name} value={d}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Quote{' '}
              <input
                aria-label="Quote character"
                className="narrow"
                maxLength={1}
                value={quote}
                onChange={(e) => e.target.value.length === 1 && setQuote(e.target.value)}
              />
            </label>
            <label>
              <input type="checkbox" checked={header} onChange={(e) => setHeader(e.target.checked)} /> First
              row is the header
            </label>
          </>
        )}
        <label>
          Encoding{' '}
          <select aria-label="Encoding" value={encoding} onChange={(e) => setEncoding(e.target.value)}>
            {ENCODINGS.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </label>
        <label>
          On a failed row{' '}
          <select
            aria-label="On a failed row"
            value={onError}
            onChange={(e) => setOnError(e.target.value as 'skip' | 'stop')}
          >
            <option value="skip">report it and go on</option>
            <option value="stop">stop the import</option>
          </select>
        </label>
      </div>
      {previewError && (
        <p className="error-text" role="alert">
          {previewError}
        </p>
      )}
      {preview && mappable && (
        <>
          <h4>Columns</h4>
          <table className="grid compact" aria-label="Column mapping">
            <thead>
              <tr>
                <th>Source field</th>
                <th>Looks like</th>
                <th>Table column</th>
              </tr>
            </thead>
            <tbody>
              {preview.fields.map((f) => (
                <tr key={f}>
                  <td className="mono">{f}</td>
                  <td className="muted">{preview.kinds[f] ?? ''}</td>
                  <td>
                    <select
                      aria-label={`Column for ${f}`}
                      value={mapping[f] ?? ''}
                      onChange={(e) => setMapping({ ...mapping, [f]: e.target.value })}
                    >
                      <option value="">(skip)</option>
                      {columns
                        .filter((c) => !c.masked)
                        .map((c) => (
                          <option key={c.name} value={c.name}>
                            {c.name} · {c.type}
                          </option>
                        ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4>First rows</h4>
          <div className="table-scroll">
            <table className="grid compact" aria-label="Import preview">
              <thead>
                <tr>
                  {preview.fields.map((f) => (
                    <th key={f}>{f}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {sample.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity but their place
                  <tr key={i}>
                    {preview.fields.map((f) => (
                      <td key={f} className={r[f] === null || r[f] === undefined ? 'cell-null' : undefined}>
                        {r[f] === null || r[f] === undefined
                          ? 'NULL'
                          : typeof r[f] === 'object'
                            ? JSON.stringify(r[f])
                            : String(r[f])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {preview.failed.length > 0 && (
            <p className="muted small">
              {preview.failed.length} of the first rows cannot be read: {preview.failed[0].reason} (line{' '}
              {preview.failed[0].line}).
            </p>
          )}
        </>
      )}
      {preview && !mappable && (
        <>
          <p className="muted small">
            {preview.statementCount} statement(s){preview.refusal ? '' : ', each run on its own'}.
          </p>
          {preview.refusal && (
            <p className="error-text" role="alert">
              {preview.refusal}
            </p>
          )}
          <pre className="definition">{(preview.statements ?? []).map((s) => `${s};`).join('\n')}</pre>
        </>
      )}
      <div className="toolbar">
        <Button variant="primary" disabled={!ready} onClick={() => void start()}>
          Import
        </Button>
        {running && (
          <span className="muted small" role="status" data-testid="import-progress">
            {uploaded < 1 && !written
              ? `Uploading ${Math.round(uploaded * 100)} %`
              : `${written?.rowCount ?? 0} rows written${written?.failedCount ? `, ${written.failedCount} failed` : ''}`}
          </span>
        )}
      </div>
      {held && (
        <ApprovalNotice
          approval={held.approval}
          message={held.message}
          guardrail={held.guardrail}
          approvalsRequired={props.approvalsRequired}
          onApproved={() => void start()}
        />
      )}
      {failure && (
        <div className="alert alert-error" role="alert">
          {failure}
        </div>
      )}
      {done && (
        <div
          className={`alert ${done.failedCount ? 'alert-warn' : 'alert-success'}`}
          role="status"
          data-testid="import-result"
        >
          Imported {done.rowCount} row(s)
          {done.failedCount ? `; ${done.failedCount} failed` : ''}
          {done.stopped ? '; the import stopped at the first failure' : ''}.
          {(done.failed ?? []).length > 0 && (
            <table className="grid compact" aria-label="Failed rows">
              <thead>
                <tr>
                  <th>Row</th>
                  <th>Line</th>
                  <th>Reason</th>
                </tr>
              </thead>
              <tbody>
                {(done.failed ?? []).map((f) => (
                  <tr key={`${f.row}-${f.line}`}>
                    <td>{f.row}</td>
                    <td>{f.line}</td>
                    <td>{f.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </div>
  );
}
