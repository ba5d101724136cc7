// Least-privilege accounts (`/api/admin/datasources/{id}/account…`): choose a PostgreSQL or MySQL/MariaDB
// datasource, the profile, schemas, the agent's read-only role, optional bootstrap credentials and the vault
// path; preview every statement with its purpose (passwords masked) and the blockers; then create the
// accounts and see each statement's outcome. Generated passwords go to the vault only.
import { type FormEvent, useState } from 'react';
import { type Answer as ApiAnswer, ApiError, apiPost, errorText } from '../lib/api';
import { DatasourceSelect, useSqlFamilyDatasources } from './SqlFamilyDatasources';

/** The plan or the run's outcome (a 409 carries the same body), from the server's OpenAPI description. */
type Answer = ApiAnswer<'/api/admin/datasources/{id}/account', 'post'>;

export function AccountProvisioning() {
  const candidates = useSqlFamilyDatasources();
  const [datasourceId, setDatasourceId] = useState('');
  const [profile, setProfile] = useState<'read' | 'readwrite'>('read');
  const [schemas, setSchemas] = useState('');
  const [agent, setAgent] = useState(true);
  const [bootUser, setBootUser] = useState('');
  const [bootPassword, setBootPassword] = useState('');
  const [vaultPath, setVaultPath] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [ranOnce, setRanOnce] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = datasourceId || candidates[0]?.id || '';

  const body = () => ({
    profile,
    schemas: schemas
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    agent,
    ...(bootUser ? { bootstrap: { user: bootUser, password: bootPassword } } : {}),
    ...(vaultPath.trim() ? { vaultPath: vaultPath.trim() } : {}),
  });

  const send = async (run: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      const params = { params: { id: chosen } };
      setAnswer(
        run
          ? await apiPost('/api/admin/datasources/{id}/account', body(), params)
          : await apiPost('/api/admin/datasources/{id}/account/plan', body(), params),
      );
      setRanOnce(run);
    } catch (err) {
      // A 409 carries the statements with their outcomes (stopped at a refusal or blocker).
      if (err instanceof ApiError && err.status === 409 && err.body.plan) {
        setAnswer(err.body as unknown as Answer);
        setRanOnce(run);
      }
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const preview = (e: FormEvent) => {
    e.preventDefault();
    void send(false);
  };

  return (
    <div className="account-provisioning">
      <form className="card" onSubmit={preview} aria-label="Account provisioning">
        <h3>Least-privilege accounts</h3>
        <div className="form-row">
          <DatasourceSelect candidates={candidates} value={chosen} onChange={setDatasourceId} />
          <label>
            <span>Profile</span>
            <select value={profile} onChange={(e) => setProfile(e.target.value as 'read' | 'readwrite')}>
              <option value="read">read</option>
              <option value="readwrite">readwrite</option>
            </select>
          </label>
          <label className="grow">
            <span>Schemas</span>
            <input
              placeholder="names separated by commas (at most 100)"
              value={schemas}
              onChange={(e) => setSchemas(e.target.value)}
            />
          </label>
          <label className="check">
            <input type="checkbox" checked={agent} onChange={(e) => setAgent(e.target.checked)} />
            <span>Agent read-only role</span>
          </label>
        </div>
        <div className="form-row">
          <label>
            <span>Bootstrap user</span>
            <input
              placeholder="optional"
              value={bootUser}
              onChange={(e) => setBootUser(e.target.value)}
              autoComplete="off"
            />
          </label>
          <label>
            <span>Bootstrap password</span>
            <input
              type="password"
              value={bootPassword}
              onChange={(e) => setBootPassword(e.target.value)}
              autoComplete="new-password"
            />
          </label>
          <label className="grow">
            <span>Vault path</span>
            <input
              placeholder="e.g. portal/orders-db"
              value={vaultPath}
              onChange={(e) => setVaultPath(e.target.value)}
            />
          </label>
        </div>
        <button type="submit" disabled={busy || !chosen}>
          Preview plan
        </button>
        {problem ? <p className="error">{problem}</p> : null}
      </form>
      {answer ? (
        <section className="card" aria-label={ranOnce ? 'Account results' : 'Account plan preview'}>
          <h3>
            {ranOnce ? (answer.completed ? 'Accounts created' : 'Stopped') : 'Plan'}: {answer.plan.roleName}
            {answer.plan.agentRoleName ? ` and ${answer.plan.agentRoleName}` : ''}
          </h3>
          <p>
            Connected as {answer.inventory.connectedAs} to {answer.inventory.database}; passwords go to{' '}
            {answer.destination.kind === 'vault'
              ? `the vault at ${answer.destination.path}`
              : `nowhere (${answer.destination.reason})`}
            .
          </p>
          {answer.plan.blockers.length ? (
            <ul className="error" aria-label="Blockers">
              {answer.plan.blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
          <table className="grid" aria-label="Account statements">
            <thead>
              <tr>
                <th>Statement</th>
                <th>Purpose</th>
                <th>Account</th>
                {ranOnce ? <th>Outcome</th> : null}
              </tr>
            </thead>
            <tbody>
              {answer.plan.statements.map((s) => (
                <tr key={`${s.account}\u0000${s.shown}`}>
                  <td>
                    <code>{s.shown}</code>
                  </td>
                  <td>
                    {s.purpose}
                    {s.optional ? ' (optional)' : ''}
                  </td>
                  <td>{s.account}</td>
                  {ranOnce ? (
                    <td>
                      {s.outcome}
                      {s.error ? `: ${s.error}` : ''}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {!ranOnce ? (
            <button
              type="button"
              onClick={() => void send(true)}
              disabled={busy || answer.plan.blockers.length > 0}
            >
              Create accounts
            </button>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
