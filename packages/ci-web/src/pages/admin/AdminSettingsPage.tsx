// Server settings for administrators, one tab each: retention statistics and quotas, the artifact storage
// backend, global secrets (names only; values are write-only), service accounts with their tokens (a token's
// secret is shown once), and identity providers.
import { Badge, Button, EmptyState, Tabs } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, enc } from '../../api/client';
import type {
  AuthProviders,
  GlobalSecrets,
  RetentionStats,
  ServiceAccounts,
  ServiceAccountToken,
  StorageSettings,
} from '../../api/schema';
import type { Role } from '../../api/types';
import { QueryView } from '../../components/QueryView';
import { RoleSelect } from '../../components/RoleSelect';
import { SecretForm, SecretsTable } from '../../components/Secrets';
import { ErrorNote, InlineForm, PageHeader, Time } from '../../components/ui';
import { bytes } from '../../lib/format';
import { navigate, useLocation } from '../../lib/router';

const TABS = [
  { id: 'retention', label: 'Retention' },
  { id: 'storage', label: 'Storage' },
  { id: 'secrets', label: 'Global secrets' },
  { id: 'service-accounts', label: 'Service accounts' },
  { id: 'providers', label: 'Identity providers' },
];

export function AdminSettingsPage() {
  const { search } = useLocation();
  const tab = TABS.some((t) => t.id === search.get('tab')) ? (search.get('tab') as string) : 'retention';
  return (
    <>
      <PageHeader title="Settings" sub="Server-wide settings; every change is audited." />
      <Tabs
        items={TABS}
        value={tab}
        onChange={(id) => navigate(`/admin/settings?tab=${id}`)}
        label="Settings"
      >
        <div className="tab-body">
          {tab === 'retention' && <Retention />}
          {tab === 'storage' && <Storage />}
          {tab === 'secrets' && <Secrets />}
          {tab === 'service-accounts' && <ServiceAccountsTab />}
          {tab === 'providers' && <Providers />}
        </div>
      </Tabs>
    </>
  );
}

function Retention() {
  const q = useQuery({
    queryKey: ['retention'],
    queryFn: () => api.get<RetentionStats>('/api/v1/admin/retention'),
  });
  return <QueryView query={q}>{(d) => <RetentionFacts stats={d} />}</QueryView>;
}

function RetentionFacts({ stats }: { stats: RetentionStats }) {
  const { totals, quotas, log_archive, last_run_at } = stats;
  return (
    <>
      <p>
        Last retention pass: <Time at={last_run_at} />
      </p>
      <dl className="facts" aria-label="Retention totals">
        <Fact k="Runs" v={totals.runs.toLocaleString()} />
        <Fact k="Log lines" v={totals.log_lines.toLocaleString()} />
        <Fact k="Artifacts" v={`${totals.artifacts.toLocaleString()} (${bytes(totals.artifact_bytes)})`} />
        <Fact
          k="Cache entries"
          v={`${totals.cache_entries.toLocaleString()} (${bytes(totals.cache_bytes)})`}
        />
      </dl>
      <h3>Quotas</h3>
      <dl className="facts" aria-label="Retention quotas">
        <Fact k="Runs kept per pipeline" v={String(quotas.runs_per_pipeline)} />
        <Fact k="Logs kept" v={`${quotas.log_days} days`} />
        <Fact k="Artifacts kept" v={`${quotas.artifact_days} days, ${bytes(quotas.artifact_bytes)}`} />
        <Fact
          k="Caches"
          v={`idle ${quotas.cache_idle_days} days, ${bytes(quotas.cache_bytes_per_project)}/project`}
        />
        <Fact k="Log archive" v={log_archive.enabled ? `after ${log_archive.after_days} days` : 'off'} />
      </dl>
    </>
  );
}

function Fact({ k, v }: { k: string; v: string }) {
  return (
    <div>
      <dt>{k}</dt>
      <dd>{v}</dd>
    </div>
  );
}

function Storage() {
  const q = useQuery({
    queryKey: ['storage'],
    queryFn: () => api.get<StorageSettings>('/api/v1/admin/storage'),
  });
  return (
    <QueryView query={q}>
      {(d) => (
        <>
          <dl className="facts" aria-label="Artifact storage">
            <Fact k="Backend" v={d.backend} />
            {d.path !== undefined && <Fact k="Path" v={d.path} />}
            {d.s3 && <Fact k="Bucket" v={`${d.s3.bucket} (${d.s3.endpoint ?? d.s3.region})`} />}
            {d.s3?.prefix ? <Fact k="Prefix" v={d.s3.prefix} /> : null}
            <Fact k="Set by" v={d.source} />
          </dl>
          {d.restart_required && (
            <p role="status">
              <Badge tone="warning">restart required</Badge> This configuration is saved; the running server
              keeps the backend it opened until it restarts. Nothing is copied between backends.
            </p>
          )}
          <StorageForm current={d} />
        </>
      )}
    </QueryView>
  );
}

/**
 * The backend of artifacts, caches and archived logs: a folder or an S3-compatible bucket. The secret key
 * is write-only; left empty with the same access key id, the stored one is kept (the route's rule).
 */
function StorageForm({ current }: { current: StorageSettings }) {
  const client = useQueryClient();
  const [backend, setBackend] = useState<'local' | 's3'>(current.backend);
  const [path, setPath] = useState(current.path ?? '');
  const s3 = current.s3;
  const [bucket, setBucket] = useState(s3?.bucket ?? '');
  const [endpoint, setEndpoint] = useState(s3?.endpoint ?? '');
  const [region, setRegion] = useState(s3?.region ?? '');
  const [prefix, setPrefix] = useState(s3?.prefix ?? '');
  const [pathStyle, setPathStyle] = useState(s3?.force_path_style ?? false);
  const [keyId, setKeyId] = useState(s3?.access_key_id ?? '');
  const [secret, setSecret] = useState('');
  const saved = (d: StorageSettings) => {
    client.setQueryData(['storage'], d);
    setSecret('');
  };
  const save = useMutation({
    mutationFn: () => {
      if (backend === 'local')
        return api.put<StorageSettings>('/api/v1/admin/storage', { backend, path: path.trim() });
      const body: Record<string, unknown> = { bucket: bucket.trim(), force_path_style: pathStyle };
      if (endpoint.trim()) body.endpoint = endpoint.trim();
      if (region.trim()) body.region = region.trim();
      if (prefix.trim()) body.prefix = prefix.trim();
      if (keyId.trim()) body.access_key_id = keyId.trim();
      if (secret) body.secret_access_key = secret;
      return api.put<StorageSettings>('/api/v1/admin/storage', { backend, s3: body });
    },
    onSuccess: saved,
  });
  const reset = useMutation({
    mutationFn: () => api.del<StorageSettings>('/api/v1/admin/storage'),
    onSuccess: saved,
  });
  const ready = backend === 'local' ? path.trim() !== '' : bucket.trim() !== '';
  return (
    <form
      className="stack panel"
      aria-label="Change storage"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label className="inline">
        Backend
        <select value={backend} onChange={(e) => setBackend(e.target.value as 'local' | 's3')}>
          <option value="local">Filesystem folder</option>
          <option value="s3">S3-compatible bucket</option>
        </select>
      </label>
      {backend === 'local' ? (
        <label className="inline">
          Folder (absolute path)
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/var/lib/ci/artifacts" />
        </label>
      ) : (
        <div className="row wrap">
          <label className="inline grow">
            Bucket
            <input value={bucket} onChange={(e) => setBucket(e.target.value)} placeholder="ci-artifacts" />
          </label>
          <label className="inline grow">
            Endpoint (empty for AWS)
            <input
              value={endpoint}
              onChange={(e) => setEndpoint(e.target.value)}
              placeholder="https://s3.example.internal:9000"
            />
          </label>
          <label className="inline">
            Region
            <input value={region} onChange={(e) => setRegion(e.target.value)} placeholder="us-east-1" />
          </label>
          <label className="inline">
            Key prefix
            <input value={prefix} onChange={(e) => setPrefix(e.target.value)} placeholder="ci/" />
          </label>
          <label className="inline grow">
            Access key id
            <input value={keyId} onChange={(e) => setKeyId(e.target.value)} autoComplete="off" />
          </label>
          <label className="inline grow">
            Secret access key
            <input
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              autoComplete="new-password"
              placeholder={s3?.secret_access_key_set ? 'stored; leave empty to keep' : ''}
            />
          </label>
          <label className="inline checkbox">
            <input type="checkbox" checked={pathStyle} onChange={(e) => setPathStyle(e.target.checked)} />
            Path-style addressing (most self-hosted servers)
          </label>
        </div>
      )}
      <div className="row">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!ready}>
          Save
        </Button>
        {current.source === 'stored' && (
          <Button type="button" busy={reset.isPending} onClick={() => reset.mutate()}>
            Reset to the configured default
          </Button>
        )}
      </div>
      <ErrorNote error={save.error ?? reset.error} />
    </form>
  );
}

function Secrets() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['global-secrets'],
    queryFn: () => api.get<GlobalSecrets>('/api/v1/admin/secrets'),
  });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['global-secrets'] });
  const add = useMutation({
    mutationFn: () => api.post('/api/v1/admin/secrets', { name, value }),
    onSuccess: () => {
      setName('');
      setValue('');
      refresh();
    },
  });
  const del = useMutation({
    mutationFn: (n: string) => api.del(`/api/v1/admin/secrets/${enc(n)}`),
    onSuccess: refresh,
  });
  return (
    <>
      <SecretForm
        name={name}
        value={value}
        onName={setName}
        onValue={setValue}
        onSubmit={() => add.mutate()}
        busy={add.isPending}
        placeholder="DEPLOY_KEY"
      />
      <ErrorNote error={add.error ?? del.error} />
      <QueryView
        query={q}
        isEmpty={(d) => d.secrets.length === 0}
        empty={<EmptyState title="No global secrets." />}
      >
        {(d) => (
          <SecretsTable
            label="Global secrets"
            secrets={d.secrets}
            action={(s) => (
              <Button
                size="sm"
                variant="danger"
                aria-label={`Delete secret ${s.name}`}
                onClick={() => del.mutate(s.name)}
              >
                Delete
              </Button>
            )}
          />
        )}
      </QueryView>
    </>
  );
}

function ServiceAccountsTab() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['service-accounts'],
    queryFn: () => api.get<ServiceAccounts>('/api/v1/admin/service-accounts?limit=200&offset=0'),
  });
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [secret, setSecret] = useState<{ account: string; token: string } | null>(null);
  const create = useMutation({
    mutationFn: () => api.post('/api/v1/admin/service-accounts', { name, role }),
    onSuccess: () => {
      setName('');
      client.invalidateQueries({ queryKey: ['service-accounts'] });
    },
  });
  const mint = useMutation({
    mutationFn: (a: { id: string; name: string }) =>
      api
        .post<ServiceAccountToken>(`/api/v1/admin/service-accounts/${enc(a.id)}/tokens`, { name: 'ui' })
        .then((t) => ({ account: a.name, token: t.secret })),
    onSuccess: setSecret,
  });
  return (
    <>
      <InlineForm onSubmit={() => create.mutate()} label="Create a service account">
        <label className="inline">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="deploy-bot" />
        </label>
        <RoleSelect label="Role" value={role} onChange={setRole} />
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!name.trim()}>
          Create service account
        </Button>
      </InlineForm>
      <ErrorNote error={create.error ?? mint.error} />
      {secret && (
        <div className="note note-success" role="status">
          Token for {secret.account} (shown once): <code>{secret.token}</code>
        </div>
      )}
      <QueryView
        query={q}
        isEmpty={(d) => d.service_accounts.length === 0}
        empty={<EmptyState title="No service accounts." />}
      >
        {(d) => (
          <table className="table" aria-label="Service accounts">
            <thead>
              <tr>
                <th>Name</th>
                <th>Role</th>
                <th>Created</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {d.service_accounts.map((a) => (
                <tr key={a.id}>
                  <td>{a.name}</td>
                  <td>{a.role}</td>
                  <td>
                    <Time at={a.created_at} />
                  </td>
                  <td className="right">
                    <Button size="sm" onClick={() => mint.mutate(a)}>
                      New token
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
    </>
  );
}

function Providers() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['providers'],
    queryFn: () => api.get<AuthProviders>('/api/v1/admin/auth/providers'),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['providers'] });
  const del = useMutation({
    mutationFn: (id: string) => api.del(`/api/v1/admin/auth/providers/${enc(id)}`),
    onSuccess: refresh,
  });
  const empty = (
    <EmptyState title="No identity providers.">
      Add an OpenID Connect provider below, or in the server configuration (CI_CONFIG `auth.oidc_providers`,
      docs/ci-auth.md).
    </EmptyState>
  );
  return (
    <>
      <QueryView query={q} isEmpty={(d) => d.providers.length === 0} empty={empty}>
        {(d) => (
          <ProvidersTable
            providers={d.providers}
            onDelete={(id) => del.mutate(id)}
            deleting={del.isPending}
          />
        )}
      </QueryView>
      <ErrorNote error={del.error} />
      <ProviderForm onCreated={refresh} />
    </>
  );
}

/** A new OIDC provider; the client secret is write-only (sealed at rest, never answered). */
function ProviderForm({ onCreated }: { onCreated(): void }) {
  const blank = { name: '', display: '', issuer: '', client_id: '', client_secret: '', role_claim: '' };
  const [f, setF] = useState(blank);
  const [role, setRole] = useState<Role>('viewer');
  const field = (k: keyof typeof blank) => ({
    value: f[k],
    onChange: (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value }),
  });
  const create = useMutation({
    mutationFn: () => {
      const body: Record<string, string> = { default_role: role };
      for (const [k, v] of Object.entries(f)) if (v.trim()) body[k] = v.trim();
      return api.post('/api/v1/admin/auth/providers', body);
    },
    onSuccess: () => {
      setF(blank);
      onCreated();
    },
  });
  return (
    <form
      className="stack panel"
      aria-label="Add an identity provider"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3>Add an OpenID Connect provider</h3>
      <div className="row wrap">
        <label className="inline">
          Name (in the callback URL)
          <input {...field('name')} placeholder="corp-sso" />
        </label>
        <label className="inline grow">
          Button text
          <input {...field('display')} placeholder="Corporate SSO" />
        </label>
        <label className="inline grow">
          Issuer URL
          <input {...field('issuer')} placeholder="https://login.example.com/realms/ci" />
        </label>
      </div>
      <div className="row wrap">
        <label className="inline grow">
          Client id
          <input {...field('client_id')} autoComplete="off" />
        </label>
        <label className="inline grow">
          Client secret
          <input type="password" {...field('client_secret')} autoComplete="new-password" />
        </label>
        <label className="inline">
          Role claim
          <input {...field('role_claim')} placeholder="groups" />
        </label>
        <RoleSelect label="Default role" value={role} onChange={setRole} />
      </div>
      <div className="row">
        <Button
          type="submit"
          variant="primary"
          busy={create.isPending}
          disabled={!f.name.trim() || !f.issuer.trim() || !f.client_id.trim()}
        >
          Add provider
        </Button>
      </div>
      <ErrorNote error={create.error} title="The provider was not added" />
    </form>
  );
}

function ProvidersTable(props: {
  providers: AuthProviders['providers'];
  onDelete(id: string): void;
  deleting: boolean;
}) {
  return (
    <table className="table" aria-label="Identity providers">
      <thead>
        <tr>
          <th>Name</th>
          <th>Issuer</th>
          <th>Client</th>
          <th>Role claim</th>
          <th>Default role</th>
          <th>Source</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.providers.map((p) => (
          <tr key={p.id}>
            <td>{p.display}</td>
            <td className="mono small">{p.issuer}</td>
            <td className="mono small">
              {p.client_id} {p.has_client_secret && <Badge>secret set</Badge>}
            </td>
            <td>{p.role_claim ?? '—'}</td>
            <td>{p.default_role}</td>
            <td>{p.source}</td>
            <td className="right">
              {p.source === 'config' ? (
                <span className="muted small">in CI_CONFIG</span>
              ) : (
                <Button
                  size="sm"
                  variant="danger"
                  aria-label={`Delete provider ${p.name}`}
                  busy={props.deleting}
                  onClick={() => props.onDelete(p.id)}
                >
                  Delete
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
