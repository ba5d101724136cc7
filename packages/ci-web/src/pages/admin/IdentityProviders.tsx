// The identity-providers tab of the server settings: the OpenID Connect providers sign-in offers (from the
// configuration or added here), deleting the ones added here, and the form that adds one.
import { Badge, Button, EmptyState } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, apiGet, enc } from '../../api/client';
import type { AuthProviders } from '../../api/schema';
import type { Role } from '../../api/types';
import { QueryView } from '../../components/QueryView';
import { RoleSelect } from '../../components/RoleSelect';
import { ErrorNote, InlineField } from '../../components/ui';

export function IdentityProviders() {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ['providers'],
    queryFn: () => apiGet('/api/v1/admin/auth/providers'),
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
        <InlineField label="Name (in the callback URL)">
          <input {...field('name')} placeholder="corp-sso" />
        </InlineField>
        <InlineField label="Button text" grow>
          <input {...field('display')} placeholder="Corporate SSO" />
        </InlineField>
        <InlineField label="Issuer URL" grow>
          <input {...field('issuer')} placeholder="https://login.example.com/realms/ci" />
        </InlineField>
      </div>
      <div className="row wrap">
        <InlineField label="Client id" grow>
          <input {...field('client_id')} autoComplete="off" />
        </InlineField>
        <InlineField label="Client secret" grow>
          <input type="password" {...field('client_secret')} autoComplete="new-password" />
        </InlineField>
        <InlineField label="Role claim">
          <input {...field('role_claim')} placeholder="groups" />
        </InlineField>
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
