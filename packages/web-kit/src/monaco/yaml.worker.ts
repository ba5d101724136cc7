// The YAML language worker, re-exported from a local file so Vite bundles it as its own worker chunk
// (monaco-yaml's README: importing its worker directly through `?worker` breaks under Vite).
import 'monaco-yaml/yaml.worker.js';
