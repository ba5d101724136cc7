// Apply a pipeline bundle: a Monaco YAML editor wired to the published JSON Schema (completion, hover docs,
// problems at line and column while typing), a preview of what apply will change (computed against the
// project as the server has it), and the server's own problems shown at their line in the editor and as a
// list whose entries move the caret there.
import { Button, Dialog, useShortcut } from '@app/web-kit';
import { type EditorMarker, MonacoEditor, type MonacoModule } from '@app/web-kit/monaco';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { ApiError, apiGet, apiPost } from '../api/client';
import type { ProjectDetail } from '../api/types';
import { ErrorNote, Notice, PageHeader } from '../components/ui';
import { type ApplyPlan, type CurrentProject, planApply, readBundle } from '../lib/bundle-diff';
import { parseBundleErrors } from '../lib/bundle-errors';
import { Link } from '../lib/router';
import { EXAMPLE } from './apply-example';

const MODEL = 'file:///bundle.yaml';
const SCHEMA = '/api/v1/schema/pipeline-bundle.json';

type Editor = Parameters<NonNullable<Parameters<typeof MonacoEditor>[0]['onReady']>>[0];

async function currentProject(slug: string): Promise<CurrentProject | null> {
  let project: ProjectDetail;
  try {
    project = await apiGet('/api/v1/projects/{slug}', { params: { slug } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
  const pipelines = await Promise.all(
    project.pipelines.map(async (p) => ({
      name: p.name,
      yaml: (await apiGet('/api/v1/pipelines/{id}/yaml', { params: { id: p.id } })).yaml,
    })),
  );
  return { name: project.name, description: project.description, pipelines };
}

export function ApplyPage() {
  const client = useQueryClient();
  const [yaml, setYaml] = useState('');
  const [caret, setCaret] = useState({ line: 1, column: 1 });
  const [schemaProblems, setSchemaProblems] = useState(0);
  const [plan, setPlan] = useState<ApplyPlan | null>(null);
  const editor = useRef<Editor | null>(null);
  const apply = useMutation({
    mutationFn: (text: string) => apiPost('/api/v1/projects/apply', { yaml: text }),
    onSuccess: (result) => {
      setPlan(null);
      client.invalidateQueries({ queryKey: ['projects'] });
      client.invalidateQueries({ queryKey: ['project', result.project_slug] });
    },
  });
  const preview = useMutation({
    mutationFn: async (text: string) => {
      const slug = readBundle(text).slug;
      return planApply(text, await currentProject(slug));
    },
    onSuccess: setPlan,
  });
  const problems = useMemo(
    () =>
      apply.error instanceof ApiError && apply.error.status === 400
        ? parseBundleErrors(apply.error.message)
        : [],
    [apply.error],
  );
  const markers = useMemo<EditorMarker[]>(
    () =>
      problems.flatMap((p) =>
        p.line
          ? [{ line: p.line, column: p.column ?? 1, message: `${p.path ? `${p.path}: ` : ''}${p.message}` }]
          : [],
      ),
    [problems],
  );

  const goTo = (line: number, column: number) => {
    const e = editor.current;
    if (!e) return;
    e.setPosition({ lineNumber: line, column });
    e.revealLineInCenter(line);
    e.focus();
  };

  const onReady = (e: Editor, kit: MonacoModule) => {
    editor.current = e;
    e.onDidChangeCursorPosition((ev: { position: { lineNumber: number; column: number } }) =>
      setCaret({ line: ev.position.lineNumber, column: ev.position.column }),
    );
    kit.monaco.editor.onDidChangeMarkers(() => {
      const model = e.getModel();
      if (!model) return;
      const markers = kit.monaco.editor.getModelMarkers({ resource: model.uri, owner: 'yaml' });
      // The YAML language server reports every schema violation (an unknown key among them) as a warning,
      // but apply refuses each one: mark them as the errors they are. Re-marking fires this listener once
      // more, and then every marker is already an error.
      const error = kit.monaco.MarkerSeverity.Error;
      if (markers.some((m) => m.severity !== error))
        kit.monaco.editor.setModelMarkers(
          model,
          'yaml',
          markers.map((m) => ({ ...m, severity: error })),
        );
      setSchemaProblems(markers.length);
    });
    fetch(SCHEMA, { credentials: 'include' })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`schema: ${r.status}`))))
      .then((schema: object) =>
        kit.configureYaml({
          enableSchemaRequest: false,
          validate: true,
          completion: true,
          hover: true,
          schemas: [
            { uri: new URL(SCHEMA, window.location.href).href, fileMatch: [MODEL, '**/bundle.yaml'], schema },
          ],
        }),
      )
      .catch(() => {
        // Without the schema the editor still edits; the server validates on apply.
      });
  };

  useShortcut('p', 'Preview what apply will change', () => yaml.trim() && preview.mutate(yaml), {
    group: 'Apply',
  });

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
        <MonacoEditor
          label="Bundle YAML"
          language="yaml"
          path={MODEL}
          value={yaml}
          onChange={setYaml}
          markers={markers}
          height="min(56vh, 520px)"
          onReady={onReady}
        />
        <div className="row wrap">
          <Button type="submit" variant="primary" busy={apply.isPending} disabled={yaml.trim() === ''}>
            {apply.isPending ? 'Applying…' : 'Apply'}
          </Button>
          <Button busy={preview.isPending} disabled={yaml.trim() === ''} onClick={() => preview.mutate(yaml)}>
            Preview changes
          </Button>
          <Button onClick={() => setYaml(EXAMPLE)}>Insert example</Button>
          <a href={SCHEMA} target="_blank" rel="noreferrer">
            Bundle JSON Schema
          </a>
          <span className="grow" />
          <span className="small muted" data-testid="schema-problems">
            {schemaProblems === 0
              ? 'No schema problems'
              : `${schemaProblems} schema problem${schemaProblems === 1 ? '' : 's'}`}
          </span>
          <span className="small muted" data-testid="caret">
            Line {caret.line}, column {caret.column}
          </span>
        </div>
      </form>
      <ErrorNote error={preview.error} title="Preview" />
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
                  <button type="button" className="link" onClick={() => goTo(p.line!, p.column ?? 1)}>
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
      <Dialog
        open={plan !== null}
        title="What apply will change"
        onClose={() => setPlan(null)}
        wide
        footer={
          <>
            <Button onClick={() => setPlan(null)}>Close</Button>
            <Button
              variant="primary"
              busy={apply.isPending}
              onClick={() => {
                apply.mutate(yaml);
              }}
            >
              Apply these changes
            </Button>
          </>
        }
      >
        {plan && <PlanView plan={plan} />}
      </Dialog>
    </>
  );
}

function PlanView({ plan }: { plan: ApplyPlan }) {
  const changes = plan.pipelines.filter((p) => p.kind !== 'unchanged').length + plan.projectFields.length;
  return (
    <section className="plan" aria-label="Apply preview">
      <p>
        Project <code>{plan.slug}</code>:{' '}
        {plan.newProject
          ? 'new project'
          : changes === 0
            ? 'nothing changes'
            : `${changes} change${changes === 1 ? '' : 's'}`}
      </p>
      {plan.projectFields.map((f) => (
        <p key={f.field} className="small">
          {f.field}: <del>{f.before || '—'}</del> → <ins>{f.after || '—'}</ins>
        </p>
      ))}
      <ul className="plan-list">
        {plan.pipelines.map((p) => (
          <li key={p.name}>
            <span className={`plan-kind plan-${p.kind}`}>{p.kind}</span> <strong>{p.name}</strong>
            {(p.kind === 'changed' || p.kind === 'added') && (
              <pre className="code-block diff">
                {p.diff.map((l) => (
                  <div
                    key={l.n}
                    className={l.op === '+' ? 'diff-add' : l.op === '-' ? 'diff-del' : 'diff-same'}
                  >
                    {l.op} {l.text}
                  </div>
                ))}
              </pre>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
