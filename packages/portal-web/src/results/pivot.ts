// Group-by pivot of loaded rows for the chart panel: rows grouped by one column, a measure aggregated per
// group (count, sum, avg, min, max), optionally split by a second column into series.

export type Aggregate = 'count' | 'sum' | 'avg' | 'min' | 'max';

export interface PivotSpec {
  groupBy: string;
  seriesBy?: string;
  measure?: string;
  aggregate: Aggregate;
}

export interface Pivot {
  groups: string[];
  series: string[];
  /** values[seriesIndex][groupIndex] */
  values: number[][];
}

const label = (v: unknown) =>
  v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function pivot(rows: Record<string, unknown>[], spec: PivotSpec, maxGroups = 50): Pivot {
  const groups: string[] = [];
  const series: string[] = [];
  const gIdx = new Map<string, number>();
  const sIdx = new Map<string, number>();
  const acc = new Map<string, { n: number; sum: number; min: number; max: number }>();
  for (const r of rows) {
    const g = label(r[spec.groupBy]);
    const s = spec.seriesBy
      ? label(r[spec.seriesBy])
      : spec.measure && spec.aggregate !== 'count'
        ? `${spec.aggregate}(${spec.measure})`
        : 'count';
    if (!gIdx.has(g)) {
      if (groups.length >= maxGroups) continue;
      gIdx.set(g, groups.length);
      groups.push(g);
    }
    if (!sIdx.has(s)) {
      sIdx.set(s, series.length);
      series.push(s);
    }
    const raw = spec.measure ? Number(r[spec.measure]) : 1;
    if (spec.aggregate !== 'count' && !Number.isFinite(raw)) continue;
    const k = `${sIdx.get(s)}\u0000${gIdx.get(g)}`;
    const a = acc.get(k) ?? { n: 0, sum: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
    a.n++;
    a.sum += raw;
    a.min = Math.min(a.min, raw);
    a.max = Math.max(a.max, raw);
    acc.set(k, a);
  }
  const values = series.map((_, si) =>
    groups.map((_, gi) => {
      const a = acc.get(`${si}\u0000${gi}`);
      if (!a) return 0;
      switch (spec.aggregate) {
        case 'count':
          return a.n;
        case 'sum':
          return a.sum;
        case 'avg':
          return a.sum / a.n;
        case 'min':
          return a.min;
        default:
          return a.max;
      }
    }),
  );
  return { groups, series, values };
}
