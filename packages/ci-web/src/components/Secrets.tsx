// The pieces both secret lists share (a project's secrets panel and the administrators' global secrets): a
// form that writes a name and a write-only value — the value is cleared once saved and never read back —
// and the table of names with when each was last set and a per-row action.
import type { ReactNode } from 'react';
import { InlineForm, Time } from './ui';

export interface SecretRow {
  name: string;
  updated_at: string;
}

export function SecretForm(props: {
  name: string;
  value: string;
  onName(name: string): void;
  onValue(value: string): void;
  onSubmit(): void;
  busy: boolean;
  placeholder?: string;
}) {
  return (
    <InlineForm onSubmit={props.onSubmit} label="Set a secret">
      <label className="inline">
        Secret name
        <input
          className="mono"
          required
          pattern="[A-Za-z_][A-Za-z0-9_]*"
          title="An environment variable name: letters, digits and _"
          placeholder={props.placeholder}
          value={props.name}
          onChange={(e) => props.onName(e.target.value)}
        />
      </label>
      <label className="inline grow">
        Secret value
        <input
          type="password"
          autoComplete="off"
          required
          value={props.value}
          onChange={(e) => props.onValue(e.target.value)}
        />
      </label>
      <button type="submit" className="primary" disabled={props.busy || !props.name.trim() || !props.value}>
        Save secret
      </button>
    </InlineForm>
  );
}

export function SecretsTable(props: {
  label: string;
  secrets: SecretRow[];
  action: (secret: SecretRow) => ReactNode;
}) {
  return (
    <table className="table compact" aria-label={props.label}>
      <thead>
        <tr>
          <th>Name</th>
          <th>Updated</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.secrets.map((s) => (
          <tr key={s.name}>
            <td className="mono">{s.name}</td>
            <td>
              <Time at={s.updated_at} />
            </td>
            <td className="right">{props.action(s)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
