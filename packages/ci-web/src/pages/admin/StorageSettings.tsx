// The storage tab of the server settings: which backend holds artifacts, caches and archived logs (a folder or
// an S3-compatible bucket), where that choice comes from, and the form that changes it.
import { Badge, Button } from '@app/web-kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiDelete, apiGet, apiPut } from '../../api/client';
import type { StorageSettings } from '../../api/schema';
import { QueryView } from '../../components/QueryView';
import { ErrorNote, Fact, InlineField } from '../../components/ui';

export function Storage() {
  const q = useQuery({
    queryKey: ['storage'],
    queryFn: () => apiGet('/api/v1/admin/storage'),
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
      if (backend === 'local') return apiPut('/api/v1/admin/storage', { backend, path: path.trim() });
      const body: Record<string, unknown> = { bucket: bucket.trim(), force_path_style: pathStyle };
      if (endpoint.trim()) body.endpoint = endpoint.trim();
      if (region.trim()) body.region = region.trim();
      if (prefix.trim()) body.prefix = prefix.trim();
      if (keyId.trim()) body.access_key_id = keyId.trim();
      if (secret) body.secret_access_key = secret;
      return apiPut('/api/v1/admin/storage', { backend, s3: body });
    },
    onSuccess: saved,
  });
  const reset = useMutation({
    mutationFn: () => apiDelete('/api/v1/admin/storage'),
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
      <InlineField label="Backend">
        <select value={backend} onChange={(e) => setBackend(e.target.value as 'local' | 's3')}>
          <option value="local">Filesystem folder</option>
          <option value="s3">S3-compatible bucket</option>
        </select>
      </InlineField>
      {backend === 'local' ? (
        <InlineField label="Folder (absolute path)">
          <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="/var/lib/ci/artifacts" />
        </InlineField>
      ) : (
        <div className="row wrap">
          <InlineField label="Bucket" grow>
            <input value={bucket} onChange={(e) => setBucket(e.target.value)} placeholder="ci-artifacts" />
          </InlineField>
          <InlineField label="Endpoint (empty for AWS)" grow>
            <input
              value={endpoint}
              onChange={(e) => setEndpoint(e.target.value)}
              placeholder="https://s3.example.internal:9000"
            />
          </InlineField>
          <InlineField label="Region">
            <input value={region} onChange={(e) => setRegion(e.target.value)} placeholder="us-east-1" />
          </InlineField>
          <InlineField label="Key prefix">
            <input value={prefix} onChange={(e) => setPrefix(e.target.value)} placeholder="ci/" />
          </InlineField>
          <InlineField label="Access key id" grow>
            <input value={keyId} onChange={(e) => setKeyId(e.target.value)} autoComplete="off" />
          </InlineField>
          <InlineField label="Secret access key" grow>
            <input
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              autoComplete="new-password"
              placeholder={s3?.secret_access_key_set ? 'stored; leave empty to keep' : ''}
            />
          </InlineField>
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
