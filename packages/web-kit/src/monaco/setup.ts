// Everything Monaco needs, loaded only when a page first shows an editor (see load.ts): the editor API, its
// standard features (find, folding, suggest, hover…), the languages the two UIs edit (YAML for pipeline
// bundles; SQL flavours for the portal), and the web workers — bundled by Vite from node_modules through
// `?worker`, so nothing is fetched from a CDN and the page's CSP can stay `default-src 'self'`.
import 'monaco-editor/features/register.all.js';
import 'monaco-editor/languages/definitions/yaml/register.js';
import 'monaco-editor/languages/definitions/sql/register.js';
import 'monaco-editor/languages/definitions/pgsql/register.js';
import 'monaco-editor/languages/definitions/mysql/register.js';
import 'monaco-editor/languages/definitions/redis/register.js';
import 'monaco-editor/languages/definitions/shell/register.js';
import * as monaco from 'monaco-editor/editor/editor.api.js';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';
import { configureMonacoYaml, type MonacoYamlOptions } from 'monaco-yaml';
import YamlWorker from './yaml.worker?worker';

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

window.MonacoEnvironment = {
  getWorker(_id, label) {
    if (label === 'yaml') return new YamlWorker();
    return new EditorWorker();
  },
};

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
