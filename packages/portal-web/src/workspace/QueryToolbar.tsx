// The query panel's toolbar: Run (the statement under the cursor), Run script, Cancel, Explain with its mode,
// Format, Params, Save, History, the ticket box and the three exports. It holds no state: the panel owns it.
import { Button } from '@app/web-kit';
import type { EngineMeta } from '../lib/types';

type EngineCapabilities = EngineMeta['capabilities'];

export type ExportFormat = 'csv' | 'json' | 'sql-insert';

export function QueryToolbar(props: {
  running: boolean;
  empty: boolean;
  sqlEngine: boolean;
  caps: EngineCapabilities | undefined;
  explainModes: string[];
  explainMode: 'estimate' | 'analyze';
  onExplainMode: (m: 'estimate' | 'analyze') => void;
  paramCount: number;
  showParams: boolean;
  showHistory: boolean;
  ticket: string;
  onTicket: (t: string) => void;
  ticketRequired: boolean;
  canExport: boolean;
  exporting: string | null;
  onRun: () => void;
  onRunScript: () => void;
  onCancel: () => void;
  onExplain: () => void;
  onFormat: () => void;
  onToggleParams: () => void;
  onSave: () => void;
  onToggleHistory: () => void;
  onExport: (format: ExportFormat) => void;
}) {
  const { running, empty, caps, explainModes, ticketRequired, canExport, exporting } = props;
  return (
    <div className="toolbar">
      <Button
        variant="primary"
        title="Run the selection or the statement under the cursor (Ctrl/⌘-Enter)"
        onClick={props.onRun}
        disabled={running || empty}
      >
        {running ? 'Running…' : 'Run'}
      </Button>
      {props.sqlEngine && (
        <Button
          title="Run every statement of the tab in order (Ctrl/⌘-Shift-Enter)"
          onClick={props.onRunScript}
          disabled={running || empty}
        >
          Run script
        </Button>
      )}
      {running && caps?.supportsCancel !== false && <Button onClick={props.onCancel}>Cancel</Button>}
      {explainModes.length > 0 && (
        <span className="btn-group">
          <select
            aria-label="Explain mode"
            value={props.explainMode}
            onChange={(e) => props.onExplainMode(e.target.value as 'estimate')}
          >
            {explainModes.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <Button onClick={props.onExplain} disabled={running || empty}>
            Explain
          </Button>
        </span>
      )}
      <Button size="sm" title="Format (Shift-Alt-F)" onClick={props.onFormat} disabled={empty}>
        Format
      </Button>
      {caps?.supportsPositionalParams !== false && (
        <Button size="sm" aria-pressed={props.showParams} onClick={props.onToggleParams}>
          Params{props.paramCount ? ` (${props.paramCount})` : ''}
        </Button>
      )}
      <Button size="sm" onClick={props.onSave} disabled={empty}>
        Save
      </Button>
      <Button size="sm" aria-pressed={props.showHistory} onClick={props.onToggleHistory}>
        History
      </Button>
      <label className={`ticket${ticketRequired ? ' required' : ''}`}>
        <span>Ticket{ticketRequired ? ' *' : ''}</span>
        <input
          aria-label="Ticket"
          placeholder={ticketRequired ? 'required for writes' : 'optional'}
          maxLength={120}
          value={props.ticket}
          onChange={(e) => props.onTicket(e.target.value)}
        />
      </label>
      <span className="spacer" />
      <fieldset className="btn-group" aria-label="Export">
        {(
          [
            ['csv', 'Export CSV'],
            ['json', 'Export JSON'],
            ['sql-insert', 'Export SQL'],
          ] as const
        ).map(([f, label]) => (
          <Button
            key={f}
            size="sm"
            disabled={!canExport || exporting !== null || empty}
            title={canExport ? `Download the statement's rows as ${f}` : 'Export is not allowed for you here'}
            onClick={() => props.onExport(f)}
          >
            {exporting === f ? 'Exporting…' : label}
          </Button>
        ))}
      </fieldset>
    </div>
  );
}
