// The managed datasources of PORTAL_DATASOURCES, kept current: read and validated at start (a bad file stops
// the start with every problem listed), then re-read when the file changes (directory watch + debounce, so
// editors that replace the file and mounted config maps that swap a symlink are both seen). A bad edit is
// logged and the last good set stays in force. Later features look datasources up here by id.
import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { ConfigError } from '@app/kit';
import { parse as parseYaml } from 'yaml';
import type { ManagedDatasource, ManagedEntry, SessionRole } from './types.js';
import { readDatasources } from './validate.js';

export interface DatasourceLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ManagedDatasourcesOptions {
  env?: NodeJS.ProcessEnv;
  log?: DatasourceLog;
  /** Re-read on change (default true). */
  watch?: boolean;
  debounceMs?: number;
}

const ENV_NAME = 'PORTAL_DATASOURCES';
const silent: DatasourceLog = { info() {}, warn() {}, error() {} };

type Loaded = { ok: true; entries: ManagedEntry[]; hash: string } | { ok: false; errors: string[] };

async function loadFile(path: string, env: NodeJS.ProcessEnv): Promise<Loaded> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return {
      ok: false,
      errors: [`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`],
    };
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    return { ok: false, errors: [`${path} is not valid YAML (${(err as Error).message.split('\n')[0]})`] };
  }
  const { entries, errors } = readDatasources(doc, env);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, entries, hash: createHash('sha256').update(text).digest('hex') };
}

export class ManagedDatasources {
  private entries = new Map<string, ManagedEntry>();
  private hash = '';
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<() => void>();
  private reloading: Promise<unknown> = Promise.resolve();
  /** Increases with every change that took effect. */
  version = 0;
  /** Problems of the latest edit that was refused, cleared by the next good one. */
  lastErrors: string[] = [];

  private constructor(
    readonly path: string | undefined,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: DatasourceLog,
    private readonly debounceMs: number,
  ) {}

  /** No PORTAL_DATASOURCES: no managed datasources. */
  static none(): ManagedDatasources {
    return new ManagedDatasources(undefined, {}, silent, 0);
  }

  /** Reads `path` (throws ConfigError listing every problem) and, unless told not to, watches it. */
  static async open(
    path: string | undefined,
    options: ManagedDatasourcesOptions = {},
  ): Promise<ManagedDatasources> {
    if (!path) return ManagedDatasources.none();
    const full = resolve(path);
    const registry = new ManagedDatasources(
      full,
      options.env ?? process.env,
      options.log ?? silent,
      options.debounceMs ?? 150,
    );
    const loaded = await loadFile(full, registry.env);
    if (!loaded.ok) throw new ConfigError(loaded.errors.map((e) => `${ENV_NAME}: ${e}`));
    registry.apply(loaded);
    if (options.watch !== false) registry.startWatching();
    return registry;
  }

  /** Every declared datasource, available or not, in file order. */
  all(): ManagedEntry[] {
    return [...this.entries.values()];
  }

  /** The full server-side definition (credentials and policy) of an available datasource. */
  getManaged(id: string): ManagedDatasource | undefined {
    const entry = this.entries.get(id);
    return entry?.available ? entry.datasource : undefined;
  }

  /**
   * Available, unavailable (with the reason) or not managed. A request naming an unavailable managed id must
   * fail (503), never fall back to a descriptor the client sent.
   */
  resolve(id: string): ManagedEntry | undefined {
    return this.entries.get(id);
  }

  /** Why a declared datasource cannot be used right now (e.g. a missing `${ENV}`), or undefined. */
  unavailable(id: string): string | undefined {
    const entry = this.entries.get(id);
    return entry && !entry.available ? entry.datasource.reason : undefined;
  }

  isManaged(id: string): boolean {
    return this.entries.has(id);
  }

  /** Datasources whose `roles` admit `role`. */
  visibleTo(role: SessionRole): ManagedEntry[] {
    return this.all().filter((e) => e.datasource.roles.includes(role));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads the file now; answers whether the file's current content is in force. */
  reload(): Promise<boolean> {
    const next = this.reloading.then(() => this.reloadNow());
    this.reloading = next.catch(() => {});
    return next;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
    this.listeners.clear();
  }

  private async reloadNow(): Promise<boolean> {
    if (!this.path) return true;
    const loaded = await loadFile(this.path, this.env);
    if (!loaded.ok) {
      const changed = loaded.errors.join('\n') !== this.lastErrors.join('\n');
      this.lastErrors = loaded.errors;
      if (changed) {
        this.log.error(
          { file: this.path, problems: loaded.errors },
          `${ENV_NAME}: the edited file was refused; the previous managed datasources stay in force`,
        );
      }
      return false;
    }
    this.lastErrors = [];
    if (loaded.hash === this.hash) return true;
    this.apply(loaded);
    this.log.info(
      { file: this.path, datasources: this.entries.size },
      `${ENV_NAME}: managed datasources reloaded`,
    );
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.log.error({ err }, 'managed datasource change listener failed');
      }
    }
    return true;
  }

  private apply(loaded: Extract<Loaded, { ok: true }>): void {
    this.entries = new Map(loaded.entries.map((e) => [e.datasource.id, e]));
    this.hash = loaded.hash;
    this.version++;
    for (const e of loaded.entries) {
      if (!e.available) {
        this.log.warn(
          { datasource: e.datasource.id, reason: e.datasource.reason },
          `managed datasource "${e.datasource.id}" is unavailable: ${e.datasource.reason}`,
        );
      }
    }
  }

  private startWatching(): void {
    if (!this.path) return;
    const file = basename(this.path);
    try {
      this.watcher = watch(dirname(this.path), { persistent: false }, (_event, name) => {
        // Config-map mounts change `..data`, not the file's own name; any change in the folder re-reads,
        // and an unchanged file is recognised by its hash.
        if (name && name !== file && !name.startsWith('..')) return;
        this.schedule();
      });
      this.watcher.on('error', (err) => this.log.error({ err }, `${ENV_NAME}: watching the file failed`));
    } catch (err) {
      this.log.warn({ err }, `${ENV_NAME}: cannot watch the file; changes need a restart`);
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), this.debounceMs);
    this.timer.unref();
  }
}
