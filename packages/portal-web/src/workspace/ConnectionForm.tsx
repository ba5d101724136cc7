// The form for one of the person's own connections: engine (the engines the server runs, from
// /api/db/provider-meta, with their default port and whether they are a file), host, port, user, password,
// database, the engine's own descriptor fields (provider-meta `connectionFields`), environment and query
// timeout, with "Test connection" (`POST /api/db/test-connection`, which
// opens a fresh connection within 10 s) before saving.
import { Button } from '@app/web-kit';
import { type FormEvent, useState } from 'react';
import { apiPost, errorText } from '../lib/api';
import { newConnectionId } from '../lib/connections';
import { useEngines } from '../lib/engines';
import { type Connection, ENVIRONMENTS, type EngineType, type Environment } from '../lib/types';

interface TestOutcome {
  ok: boolean;
  text: string;
}

export function ConnectionForm(props: {
  initial?: Connection;
  onSave: (c: Connection) => Promise<void>;
  onCancel: () => void;
  buildDescriptor: (c: Connection) => Record<string, unknown>;
}) {
  const init = props.initial;
  const engines = useEngines();
  const [name, setName] = useState(init?.name ?? '');
  const [type, setType] = useState<EngineType>(init?.type ?? 'postgres');
  const [host, setHost] = useState(init?.host ?? '');
  const [port, setPort] = useState(init?.port ? String(init.port) : '');
  const [user, setUser] = useState(init?.user ?? '');
  const [password, setPassword] = useState('');
  const [database, setDatabase] = useState(init?.database ?? '');
  const [environment, setEnvironment] = useState<Environment | ''>(init?.environment ?? '');
  const [timeout, setTimeoutMs] = useState(init?.queryTimeout ? String(init.queryTimeout) : '');
  const [extra, setExtra] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      Object.entries(init ?? {}).filter(([, v]) => typeof v === 'string') as Array<[string, string]>,
    ),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [test, setTest] = useState<TestOutcome | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);

  const meta = engines.data?.find((e) => e.engine === type);
  const defaultPort = meta?.defaultPort;
  const fileEngine = meta?.fileBased === true;
  // The server's list; while it loads (or for a saved connection of an engine it no longer runs) the current one.
  const engineIds = engines.data?.map((e) => e.engine) ?? [];
  const offered = engineIds.includes(type) ? engineIds : [type, ...engineIds];
  const engineFields = meta?.connectionFields ?? [];

  const build = (): Connection | string => {
    if (!name.trim()) return 'Give the connection a name.';
    const c: Connection = { id: init?.id ?? newConnectionId(), name: name.trim(), type };
    if (host.trim()) c.host = host.trim();
    if (port.trim()) {
      const n = Number(port);
      if (!Number.isInteger(n) || n < 1 || n > 65535) return 'Port must be a number from 1 to 65535.';
      c.port = n;
    }
    if (user.trim()) c.user = user.trim();
    if (password) c.password = password;
    else if (init?.password) c.password = init.password;
    if (database.trim()) c.database = database.trim();
    for (const f of engineFields) {
      const v = (extra[f.name] ?? '').trim();
      if (v) c[f.name] = v;
      else if (f.required) return `${f.label} is required for ${type}.`;
    }
    if (environment) c.environment = environment;
    if (timeout.trim()) {
      const n = Number(timeout);
      if (!Number.isInteger(n) || n < 1 || n > 2147483647)
        return 'Query timeout must be a whole number of milliseconds (1 to 2147483647).';
      c.queryTimeout = n;
    }
    c.createdAt = init?.createdAt ?? new Date().toISOString();
    return c;
  };

  const runTest = async () => {
    const c = build();
    if (typeof c === 'string') return setProblem(c);
    setProblem(null);
    setBusy('test');
    setTest(null);
    try {
      const r = await apiPost('/api/db/test-connection', { connection: props.buildDescriptor(c) });
      setTest({
        ok: true,
        text: `Connected in ${r.latencyMs} ms${r.serverVersion ? ` · ${r.engine} ${r.serverVersion}` : ''}`,
      });
    } catch (err) {
      setTest({ ok: false, text: errorText(err) });
    } finally {
      setBusy(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const c = build();
    if (typeof c === 'string') return setProblem(c);
    setProblem(null);
    setBusy('save');
    try {
      await props.onSave(c);
    } catch (err) {
      setProblem(errorText(err));
      setBusy(null);
    }
  };

  return (
    <form className="conn-form" onSubmit={submit} aria-label={init ? 'Edit connection' : 'New connection'}>
      <label htmlFor="cf-name">Name</label>
      {/* biome-ignore lint/a11y/noAutofocus: the dialog opens for this field */}
      <input id="cf-name" value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      <label htmlFor="cf-type">Engine</label>
      <select id="cf-type" value={type} onChange={(e) => setType(e.target.value as EngineType)}>
        {offered.map((t) => (
          <option key={t} value={t}>
            {engines.data?.find((e) => e.engine === t)?.label ?? t}
          </option>
        ))}
      </select>
      {!fileEngine && (
        <div className="row2">
          <div>
            <label htmlFor="cf-host">Host</label>
            <input id="cf-host" value={host} onChange={(e) => setHost(e.target.value)} />
          </div>
          <div className="narrow">
            <label htmlFor="cf-port">Port</label>
            <input
              id="cf-port"
              inputMode="numeric"
              placeholder={defaultPort ? String(defaultPort) : ''}
              value={port}
              onChange={(e) => setPort(e.target.value)}
            />
          </div>
        </div>
      )}
      {!fileEngine && (
        <div className="row2">
          <div>
            <label htmlFor="cf-user">User</label>
            <input id="cf-user" autoComplete="off" value={user} onChange={(e) => setUser(e.target.value)} />
          </div>
          <div>
            <label htmlFor="cf-password">Password</label>
            <input
              id="cf-password"
              type="password"
              autoComplete="new-password"
              placeholder={init?.storedSecrets?.includes('password') || init?.password ? '(unchanged)' : ''}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
        </div>
      )}
      <label htmlFor="cf-database">{fileEngine ? 'Database file' : 'Database'}</label>
      <input
        id="cf-database"
        placeholder={fileEngine ? "e.g. notes.db (in the portal's databases folder)" : ''}
        value={database}
        onChange={(e) => setDatabase(e.target.value)}
      />
      {engineFields.map((f) => (
        <div key={f.name}>
          <label htmlFor={`cf-x-${f.name}`}>
            {f.label}
            {f.required ? ' *' : ''}
          </label>
          <input
            id={`cf-x-${f.name}`}
            placeholder={f.placeholder ?? ''}
            value={extra[f.name] ?? ''}
            onChange={(e) => setExtra({ ...extra, [f.name]: e.target.value })}
          />
        </div>
      ))}
      <div className="row2">
        <div>
          <label htmlFor="cf-env">Environment</label>
          <select
            id="cf-env"
            value={environment}
            onChange={(e) => setEnvironment(e.target.value as Environment | '')}
          >
            <option value="">(none)</option>
            {ENVIRONMENTS.map((env) => (
              <option key={env} value={env}>
                {env}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="cf-timeout">Query timeout (ms)</label>
          <input
            id="cf-timeout"
            inputMode="numeric"
            placeholder="60000"
            value={timeout}
            onChange={(e) => setTimeoutMs(e.target.value)}
          />
        </div>
      </div>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      {test && (
        <p className={test.ok ? 'ok-text' : 'error-text'} role="status">
          {test.text}
        </p>
      )}
      <div className="actions">
        <Button onClick={runTest} disabled={busy !== null}>
          {busy === 'test' ? 'Testing…' : 'Test connection'}
        </Button>
        <span className="spacer" />
        <Button variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={busy !== null}>
          Save
        </Button>
      </div>
    </form>
  );
}
