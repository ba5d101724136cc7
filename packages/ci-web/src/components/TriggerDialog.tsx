// Trigger a pipeline: an optional git ref and parameters — the pipeline's declared ones listed with their
// defaults (editable; their names fixed), plus extra name = value rows — merged over the pipeline's
// `parameters:` block by the server, then POST /api/v1/pipelines/{id}/trigger and go to the new run.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiPost } from '../api/client';
import { navigate } from '../lib/router';
import { runHref } from './RunsTable';
import { ErrorNote, Modal } from './ui';

interface Row {
  key: number;
  name: string;
  value: string;
  /** A parameter the pipeline declares: its name is fixed, its default shown. */
  declared?: string;
}

export function TriggerDialog(props: {
  pipeline: { id: string; name: string; parameters?: Record<string, string> };
  slug: string;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [gitRef, setGitRef] = useState('');
  const declared = Object.entries(props.pipeline.parameters ?? {});
  const [rows, setRows] = useState<Row[]>(() =>
    declared.map(([name, value], i) => ({ key: -1 - i, name, value, declared: value })),
  );
  const [nextKey, setNextKey] = useState(1);
  const trigger = useMutation({
    mutationFn: () => {
      const parameters: Record<string, string> = {};
      for (const r of rows) if (r.name.trim()) parameters[r.name.trim()] = r.value;
      const body: { git_ref?: string; parameters?: Record<string, string> } = {};
      if (gitRef.trim()) body.git_ref = gitRef.trim();
      if (Object.keys(parameters).length > 0) body.parameters = parameters;
      return apiPost('/api/v1/pipelines/{id}/trigger', body, { params: { id: props.pipeline.id } });
    },
    onSuccess: (result) => {
      client.invalidateQueries({ queryKey: ['project', props.slug] });
      client.invalidateQueries({ queryKey: ['runs'] });
      props.onClose();
      navigate(runHref(result.run_id));
    },
  });
  // Extra rows are numbered among themselves (the declared ones are named).
  const extraIndex = (key: number) =>
    rows.filter((r) => r.declared === undefined).findIndex((r) => r.key === key) + 1;
  const update = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  return (
    <Modal title={`Trigger ${props.pipeline.name}`} open onClose={props.onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          trigger.mutate();
        }}
      >
        <label>
          Git ref (optional)
          <input
            name="git_ref"
            placeholder="branch, tag or commit — default: the material's branch"
            value={gitRef}
            onChange={(e) => setGitRef(e.target.value)}
          />
        </label>
        <fieldset className="params">
          <legend>Parameters</legend>
          {rows.length === 0 && <p className="muted small">The pipeline declares no parameters.</p>}
          {rows.map((r) =>
            r.declared !== undefined ? (
              <div className="row" key={r.key}>
                <span className="mono">{r.name}</span>
                <input
                  aria-label={`Parameter ${r.name}`}
                  placeholder={r.declared}
                  value={r.value}
                  onChange={(e) => update(r.key, { value: e.target.value })}
                />
                <span className="muted small">default: {r.declared === '' ? '(empty)' : r.declared}</span>
              </div>
            ) : (
              <div className="row" key={r.key}>
                <input
                  aria-label={`Parameter ${extraIndex(r.key)} name`}
                  placeholder="NAME"
                  className="mono"
                  value={r.name}
                  onChange={(e) => update(r.key, { name: e.target.value })}
                />
                <input
                  aria-label={`Parameter ${extraIndex(r.key)} value`}
                  placeholder="value"
                  value={r.value}
                  onChange={(e) => update(r.key, { value: e.target.value })}
                />
                <button
                  type="button"
                  className="ghost"
                  aria-label={`Remove parameter ${extraIndex(r.key)}`}
                  onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}
                >
                  ×
                </button>
              </div>
            ),
          )}
          <button
            type="button"
            onClick={() => {
              setRows((list) => [...list, { key: nextKey, name: '', value: '' }]);
              setNextKey((k) => k + 1);
            }}
          >
            Add parameter
          </button>
        </fieldset>
        <ErrorNote error={trigger.error} />
        <div className="row end">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={trigger.isPending}>
            {trigger.isPending ? 'Starting…' : 'Start run'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
