// Every secret value the control plane keeps (project and global), as one masker (kit's, with the encoded
// forms of secret-forms.ts), for the side doors that are not a job's log: notification payloads and their
// delivery errors, audit details (docs/ci-logs-artifacts.md, "Secrets in side doors"). The values are opened
// again only when the secrets changed: a cheap stamp (count and newest `updated_at` of both tables) is
// compared on each use, so a secret stored through another replica is masked here from its next use on.
import { Masker, type SecretBox } from '@app/kit';
import { globalSecretAad, projectSecretAad } from './auth-secrets.js';
import type { StoreDb } from './database.js';

export class KnownSecrets {
  private stamp: string | null = null;
  private current = new Masker([]);
  private loading: Promise<Masker> | undefined;

  constructor(
    private readonly db: StoreDb,
    private readonly box: SecretBox,
  ) {}

  private async readStamp(): Promise<string> {
    const [p, g] = await Promise.all([
      this.db
        .selectFrom('project_secrets')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('at')])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('global_secrets')
        .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('at')])
        .executeTakeFirstOrThrow(),
    ]);
    return `${p.n}/${p.at}/${g.n}/${g.at}`;
  }

  private async load(stamp: string): Promise<Masker> {
    const [projects, globals] = await Promise.all([
      this.db.selectFrom('project_secrets').select(['project_id', 'name', 'value_sealed']).execute(),
      this.db.selectFrom('global_secrets').select(['name', 'value_sealed']).execute(),
    ]);
    const values: string[] = [];
    // A value that no longer opens (the key changed) cannot be shown by anyone either: skip it.
    for (const r of projects) {
      try {
        values.push(this.box.open(r.value_sealed, projectSecretAad(r.project_id, r.name)));
      } catch {}
    }
    for (const r of globals) {
      try {
        values.push(this.box.open(r.value_sealed, globalSecretAad(r.name)));
      } catch {}
    }
    this.current = new Masker(values);
    this.stamp = stamp;
    return this.current;
  }

  /** The masker of every secret stored now. */
  async masker(): Promise<Masker> {
    const stamp = await this.readStamp();
    if (stamp === this.stamp) return this.current;
    this.loading ??= this.load(stamp).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  async maskText(text: string): Promise<string> {
    return (await this.masker()).mask(text);
  }

  /** A JSON-like value with every string in it (keys included) masked. */
  async maskValue<T>(value: T): Promise<T> {
    const m = await this.masker();
    if (!m.active) return value;
    return maskDeep(value, m) as T;
  }
}

function maskDeep(value: unknown, m: Masker, depth = 0): unknown {
  if (typeof value === 'string') return m.mask(value);
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, m, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [m.mask(k), maskDeep(v, m, depth + 1)]),
  );
}
