/// <reference types="vite/client" />
// Everything Monaco needs, loaded only when a page first shows an editor (see load.ts): the editor API, its
// standard features (find, folding, suggest, hover…), the languages the two UIs edit (YAML for pipeline
// bundles; SQL flavours, Redis commands and JSON requests for the portal), and the web workers — bundled by Vite from node_modules through
// `?worker`, so nothing is fetched from a CDN and the page's CSP can stay `default-src 'self'`.
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/sql/sql.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/pgsql/pgsql.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/mysql/mysql.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/redis/redis.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/shell/shell.contribution.js';
// JSON with its language service (a document engine's request).
import 'monaco-editor/esm/vs/language/json/monaco.contribution.js';
// Every standard editor feature (find, folding, suggest, hover…) without the ~80 languages editor.main adds.
import 'monaco-editor/esm/vs/editor/edcore.main.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import { configureMonacoYaml, type MonacoYamlOptions } from 'monaco-yaml';
import YamlWorker from './yaml.worker?worker';

window.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === 'yaml') return new YamlWorker();
    if (label === 'json') return new JsonWorker();
    return new EditorWorker();
  },
};

// Monaco cancels its own pending work (hover, suggest, worker requests) when an editor is disposed, e.g. on
// leaving a page, and rejects those promises with an Error named "Canceled" that nobody awaits. That is
// Monaco's normal bookkeeping, not a failure of the page, so it is not reported as an unhandled rejection.
window.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as { name?: unknown; message?: unknown } | null;
  if (reason && reason.name === 'Canceled' && reason.message === 'Canceled') event.preventDefault();
});

let yaml: ReturnType<typeof configureMonacoYaml> | undefined;

/**
 * Points the YAML language at JSON Schemas (completion, hover docs and validation with line and column).
 * Called again with new options it updates the one YAML worker instead of starting another.
 */
export function configureYaml(options: MonacoYamlOptions): void {
  if (yaml) yaml.update(options);
  else yaml = configureMonacoYaml(monaco, options);
}

export { monaco };
