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
            <Fact k="Set by" v={d.source} />
          </dl>
          {d.restart_required && <Badge tone="warning">restart required to apply</Badge>}
          <StorageForm />
        </>
      )}
    </QueryView>
  );
}

function StorageForm() {
  const client = useQueryClient();
  const [path, setPath] = useState('');
  const save = useMutation({
    mutationFn: () => api.put<StorageSettings>('/api/v1/admin/storage', { backend: 'local', path }),
    onSuccess: (d) => client.setQueryData(['storage'], d),
  });
  return (
    <>
      <InlineForm onSubmit={() => save.mutate()}>
        <label className="inline grow">
          New filesystem path
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/var/lib/ci/artifacts" />
        </label>
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!path.trim()}>
          Save
        </Button>
      </InlineForm>
      <ErrorNote error={save.error} />
    </>
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
  const q = useQuery({
    queryKey: ['providers'],
    queryFn: () => api.get<AuthProviders>('/api/v1/admin/auth/providers'),
  });
  const empty = (
    <EmptyState title="No identity providers.">
      Add an OIDC provider with <code>POST /api/v1/admin/auth/providers</code> or in the server configuration.
    </EmptyState>
  );
  return (
    <QueryView query={q} isEmpty={(d) => d.providers.length === 0} empty={empty}>
      {(d) => <ProvidersTable providers={d.providers} />}
    </QueryView>
  );
}

function ProvidersTable({ providers }: { providers: AuthProviders['providers'] }) {
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
        </tr>
      </thead>
      <tbody>
        {providers.map((p) => (
          <tr key={p.id}>
            <td>{p.display}</td>
            <td className="mono small">{p.issuer}</td>
            <td className="mono small">
              {p.client_id} {p.has_client_secret && <Badge>secret set</Badge>}
            </td>
            <td>{p.role_claim ?? '—'}</td>
            <td>{p.default_role}</td>
            <td>{p.source}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
