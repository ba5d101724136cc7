// Apply a pipeline bundle: paste or write the YAML, send it to POST /api/v1/projects/apply, and either go
// on to the project or see each problem the server found with its path, line and column.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { ApiError, api } from '../api/client';
import { ErrorNote, Notice, PageHeader } from '../components/ui';
import { YamlEditor, type YamlEditorHandle } from '../components/YamlEditor';
import { parseBundleErrors } from '../lib/bundle-errors';
import { Link } from '../lib/router';
import { EXAMPLE } from './apply-example';

interface ApplyResult {
  project_slug: string;
  pipelines_applied: number;
}

export function ApplyPage() {
  const client = useQueryClient();
  const [yaml, setYaml] = useState('');
  const editor = useRef<YamlEditorHandle>(null);
  const apply = useMutation({
    mutationFn: (text: string) => api.post<ApplyResult>('/api/v1/projects/apply', { yaml: text }),
    onSuccess: (result) => {
      client.invalidateQueries({ queryKey: ['projects'] });
      client.invalidateQueries({ queryKey: ['project', result.project_slug] });
    },
  });
  const problems = useMemo(
    () =>
      apply.error instanceof ApiError && apply.error.status === 400
        ? parseBundleErrors(apply.error.message)
        : [],
    [apply.error],
  );
  const marked = useMemo(() => new Set(problems.flatMap((p) => (p.line ? [p.line] : []))), [problems]);

  return (
    <>
      <PageHeader
        title="Apply a bundle"
        sub="Creates or updates a project and its pipelines. Applying the same bundle again changes nothing."
      />
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          apply.mutate(yaml);
        }}
      >
        <YamlEditor ref={editor} label="Bundle YAML" value={yaml} onChange={setYaml} marked={marked} />
        <div className="row">
          <button type="submit" className="primary" disabled={apply.isPending || yaml.trim() === ''}>
            {apply.isPending ? 'Applying…' : 'Apply'}
          </button>
          <button type="button" onClick={() => setYaml(EXAMPLE)}>
            Insert example
          </button>
          <a href="/api/v1/schema/pipeline-bundle.json" target="_blank" rel="noreferrer">
            Bundle JSON Schema
          </a>
        </div>
      </form>
      {apply.isSuccess && (
        <Notice kind="success">
          Applied {apply.data.pipelines_applied} pipeline{apply.data.pipelines_applied === 1 ? '' : 's'} to{' '}
          <Link href={`/projects/${encodeURIComponent(apply.data.project_slug)}`}>
            {apply.data.project_slug}
          </Link>
          .
        </Notice>
      )}
      {problems.length > 0 ? (
        <section className="problems" role="alert" aria-label="Bundle problems">
          <h2>
            {problems.length} problem{problems.length === 1 ? '' : 's'} in the bundle
          </h2>
          <ul>
            {problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced as a whole
              <li key={i}>
                {p.line !== undefined && (
                  <button
                    type="button"
                    className="link"
                    onClick={() => editor.current?.goTo(p.line!, p.column ?? 1)}
                  >
                    {p.file ? `${p.file}, ` : ''}line {p.line}, column {p.column}
                  </button>
                )}
                {p.path && <code>{p.path}</code>}
                <span>{p.message}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <ErrorNote error={apply.error} />
      )}
    </>
  );
}
