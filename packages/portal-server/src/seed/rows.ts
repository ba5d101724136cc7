// Whole rows for one table (pure apart from faker's seeded randomness): a value per insertable column,
// foreign keys drawn from their parents' key pools (without repetition when the key is itself unique — a
// one-to-one), deferred (cycle-breaking) keys left null, cross-column checks (`ends_at > starts_at`)
// enforced, and every unique constraint checked on the run's own rows (a colliding row is drawn again, and
// dropped after a few tries rather than inserted to fail).
import type { Faker } from '@faker-js/faker';
import { type CheckRules, readChecks } from './checks.js';
import type { SeedFamily, SeedForeignKey, SeedTable } from './types.js';
import { formatValue, kindOf, type ValueKind, type ValueSource, valueSource } from './values.js';

const RETRIES = 8;
const NULL_SHARE = 0.1;

export interface RowGeneratorOptions {
  faker: Faker;
  family: SeedFamily;
  runTag: string;
  /** Foreign keys left null (cycle breaks). */
  deferred: Set<string>;
  /** Parent key tuples per foreign key name (in the key's column order). */
  pools: Map<string, unknown[][]>;
  /** Largest existing value of single-column unique integer keys (sequences start after it). */
  starts: Map<string, number>;
}

interface KeyPick {
  fk: SeedForeignKey;
  pool: unknown[][];
  /** One-to-one: each parent tuple once, in a shuffled order. */
  cursor?: number;
}

/** A unique constraint's key of a row (undefined when a part is null: NULLs never collide). */
function keyOf(row: unknown[], cols: number[]): string | undefined {
  let key = '';
  for (const i of cols) {
    const v = row[i];
    if (v === null) return undefined;
    key += `${v instanceof Date ? v.getTime() : `${typeof v}:${String(v)}`}\u0001`;
  }
  return key;
}

export class RowGenerator {
  /** Columns the INSERT names, in order. */
  readonly columns: string[];
  /** Rows given up on (unique keys or one-to-one parents ran out). */
  dropped = 0;
  private readonly sources: Array<{ name: string; kind: ValueKind; source: ValueSource; nullable: boolean }>;
  private readonly picks: KeyPick[];
  private readonly fkColumns = new Set<string>();
  private readonly checks: CheckRules;
  private readonly uniques: Array<{ cols: number[]; seen: Set<string> }>;
  private serial = 0;

  constructor(
    private readonly table: SeedTable,
    private readonly o: RowGeneratorOptions,
  ) {
    this.checks = readChecks(table.checks);
    const insertable = table.columns.filter((c) => !c.generated);
    this.columns = insertable.map((c) => c.name);
    const isUnique = (name: string) => table.unique.some((u) => u.length === 1 && u[0] === name);
    for (const fk of table.foreignKeys) for (const c of fk.columns) this.fkColumns.add(c);
    const constrained = new Set([
      ...this.checks.columns.keys(),
      ...this.checks.cross.flatMap((c) => [c.left, c.right]),
    ]);
    this.sources = insertable.map((c) => ({
      name: c.name,
      kind: kindOf(c),
      nullable: c.nullable && !constrained.has(c.name) && !isUnique(c.name),
      source: valueSource(o.faker, c, table.name, this.checks.columns.get(c.name), {
        unique: isUnique(c.name),
        start: o.starts.get(c.name) ?? 0,
        runTag: o.runTag,
      }),
    }));
    this.picks = table.foreignKeys
      .filter((fk) => !o.deferred.has(fk.name))
      .map((fk) => {
        const pool = o.pools.get(fk.name) ?? [];
        const oneToOne = table.unique.some(
          (u) => u.length === fk.columns.length && u.every((c) => fk.columns.includes(c)),
        );
        return oneToOne ? { fk, pool: o.faker.helpers.shuffle([...pool]), cursor: 0 } : { fk, pool };
      });
    const index = new Map(this.columns.map((c, i) => [c, i]));
    this.uniques = table.unique
      .filter((u) => u.every((c) => index.has(c)))
      .map((u) => ({ cols: u.map((c) => index.get(c) as number), seen: new Set<string>() }));
  }

  /** The next row's parameters in `columns` order, or undefined when no valid row could be made. */
  next(): unknown[] | undefined {
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      const row = this.draw();
      if (!row) return undefined;
      const keys = this.uniques.map((u) => keyOf(row, u.cols));
      if (keys.some((k, i) => k !== undefined && this.uniques[i].seen.has(k))) continue;
      for (const [i, k] of keys.entries()) if (k !== undefined) this.uniques[i].seen.add(k);
      return row.map((v, i) => formatValue(v, this.sources[i].kind, this.o.family));
    }
    this.dropped++;
    return undefined;
  }

  private draw(): unknown[] | undefined {
    const i = this.serial++;
    const f = this.o.faker;
    const values = new Map<string, unknown>();
    for (const s of this.sources) {
      if (this.fkColumns.has(s.name)) continue;
      values.set(s.name, s.nullable && f.number.float({ min: 0, max: 1 }) < NULL_SHARE ? null : s.source(i));
    }
    for (const fk of this.table.foreignKeys) {
      if (this.o.deferred.has(fk.name)) for (const c of fk.columns) values.set(c, null);
    }
    for (const p of this.picks) {
      let tuple: unknown[] | undefined;
      if (p.cursor !== undefined) tuple = p.pool[p.cursor++];
      else if (p.pool.length) tuple = p.pool[f.number.int({ min: 0, max: p.pool.length - 1 })];
      const nullable = p.fk.columns.every((c) => this.table.columns.find((x) => x.name === c)?.nullable);
      if (!tuple && !nullable) return undefined;
      for (const [k, c] of p.fk.columns.entries()) values.set(c, tuple ? tuple[k] : null);
    }
    for (const rule of this.checks.cross) this.enforce(values, rule.left, rule.op, rule.right);
    return this.columns.map((c) => values.get(c) ?? null);
  }

  /** Moves `left` past `right` when a generated pair breaks `left op right`. */
  private enforce(values: Map<string, unknown>, left: string, op: string, right: string): void {
    const l = values.get(left);
    const r = values.get(right);
    if (l === null || r === null || l === undefined || r === undefined) return;
    const ln = l instanceof Date ? l.getTime() : Number(l);
    const rn = r instanceof Date ? r.getTime() : Number(r);
    if (Number.isNaN(ln) || Number.isNaN(rn)) return;
    const ok = op === '>' ? ln > rn : op === '>=' ? ln >= rn : op === '<' ? ln < rn : ln <= rn;
    if (ok) return;
    const up = op === '>' || op === '>=';
    if (r instanceof Date) {
      const day = 24 * 3600 * 1000 * this.o.faker.number.int({ min: 1, max: 30 });
      values.set(left, new Date(rn + (up ? day : -day)));
    } else {
      values.set(left, rn + (up ? 1 : -1));
    }
  }
}
