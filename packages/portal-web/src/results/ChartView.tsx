// Charts of a result without leaving the grid: a group-by pivot (group column, optional series column,
// measure and aggregate) drawn as bar, line or pie in plain SVG — no chart library, nothing to load.
import { useMemo, useState } from 'react';
import { type Aggregate, pivot } from './pivot';

// The kit's series colours (both themes); used through inline style, where var() resolves (SVG attributes do not).
const COLORS = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `var(--kit-chart-${n})`);

export function ChartView(props: { fields: string[]; rows: Record<string, unknown>[] }) {
  const { fields, rows } = props;
  const numeric = fields.filter((f) => rows.slice(0, 50).some((r) => typeof r[f] === 'number'));
  const [kind, setKind] = useState<'bar' | 'line' | 'pie'>('bar');
  const [groupBy, setGroupBy] = useState(fields.find((f) => !numeric.includes(f)) ?? fields[0]);
  const [seriesBy, setSeriesBy] = useState('');
  const [measure, setMeasure] = useState(numeric.find((f) => f !== groupBy) ?? '');
  const [aggregate, setAggregate] = useState<Aggregate>(numeric.length ? 'sum' : 'count');
  const data = useMemo(
    () =>
      pivot(rows, {
        groupBy,
        seriesBy: seriesBy || undefined,
        measure: measure || undefined,
        aggregate: measure ? aggregate : 'count',
      }),
    [rows, groupBy, seriesBy, measure, aggregate],
  );
  const select = (
    label: string,
    value: string,
    set: (v: string) => void,
    options: string[],
    none?: string,
  ) => (
    <label className="inline-field">
      <span>{label}</span>
      <select aria-label={label} value={value} onChange={(e) => set(e.target.value)}>
        {none !== undefined && <option value="">{none}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="chart-view">
      <div className="grid-toolbar wrap">
        {select('Chart', kind, (v) => setKind(v as 'bar'), ['bar', 'line', 'pie'])}
        {select('Group by', groupBy, setGroupBy, fields)}
        {kind !== 'pie' && select('Series', seriesBy, setSeriesBy, fields, '(none)')}
        {select('Measure', measure, setMeasure, numeric, '(row count)')}
        {measure &&
          select('Aggregate', aggregate, (v) => setAggregate(v as Aggregate), [
            'sum',
            'avg',
            'min',
            'max',
            'count',
          ])}
      </div>
      {data.groups.length === 0 ? (
        <p className="muted small">No rows to chart.</p>
      ) : kind === 'pie' ? (
        <Pie groups={data.groups} values={data.values[0] ?? []} />
      ) : (
        <Axes kind={kind} groups={data.groups} series={data.series} values={data.values} />
      )}
      <table className="pivot-table" aria-label="Pivot">
        <thead>
          <tr>
            <th>{groupBy}</th>
            {data.series.map((s) => (
              <th key={s}>{s}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.groups.map((g, gi) => (
            <tr key={g}>
              <td>{g}</td>
              {data.series.map((s, si) => (
                <td key={s} className="num">
                  {Number(data.values[si][gi].toFixed(4))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Axes(props: { kind: 'bar' | 'line'; groups: string[]; series: string[]; values: number[][] }) {
  const W = 720;
  const H = 260;
  const pad = { l: 56, r: 12, t: 12, b: 48 };
  const max = Math.max(0, ...props.values.flat());
  const min = Math.min(0, ...props.values.flat());
  const span = max - min || 1;
  const y = (v: number) => pad.t + (H - pad.t - pad.b) * (1 - (v - min) / span);
  const band = (W - pad.l - pad.r) / props.groups.length;
  const barW = Math.max(2, (band * 0.8) / props.series.length);
  return (
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${props.kind} chart`}>
      <line x1={pad.l} x2={W - pad.r} y1={y(0)} y2={y(0)} className="axis" />
      {[max, (max + min) / 2, min].map((t) => (
        <text key={t} x={pad.l - 6} y={y(t) + 4} className="tick" textAnchor="end">
          {Number(t.toPrecision(4))}
        </text>
      ))}
      {props.groups.map((g, gi) => (
        <text
          key={g}
          x={pad.l + band * gi + band / 2}
          y={H - pad.b + 16}
          className="tick"
          textAnchor="middle"
        >
          {g.length > 12 ? `${g.slice(0, 11)}…` : g}
        </text>
      ))}
      {props.series.map((s, si) =>
        props.kind === 'bar' ? (
          props.values[si].map((v, gi) => (
            <rect
              key={`${s}-${props.groups[gi]}`}
              x={pad.l + band * gi + band * 0.1 + barW * si}
              y={Math.min(y(v), y(0))}
              width={barW}
              height={Math.abs(y(v) - y(0))}
              style={{ fill: COLORS[si % COLORS.length] }}
            >
              <title>{`${props.groups[gi]} · ${s}: ${v}`}</title>
            </rect>
          ))
        ) : (
          <polyline
            key={s}
            fill="none"
            style={{ stroke: COLORS[si % COLORS.length] }}
            strokeWidth={2}
            points={props.values[si].map((v, gi) => `${pad.l + band * gi + band / 2},${y(v)}`).join(' ')}
          />
        ),
      )}
      {props.series.length > 1 &&
        props.series.map((s, si) => (
          <text
            key={s}
            x={pad.l + 8 + si * 110}
            y={H - 8}
            className="tick"
            style={{ fill: COLORS[si % COLORS.length] }}
          >
            ■ {s.length > 14 ? `${s.slice(0, 13)}…` : s}
          </text>
        ))}
    </svg>
  );
}

function Pie(props: { groups: string[]; values: number[] }) {
  const total = props.values.reduce((a, b) => a + Math.max(0, b), 0) || 1;
  let angle = -Math.PI / 2;
  const R = 110;
  const c = 130;
  return (
    <svg className="chart" viewBox="0 0 520 260" role="img" aria-label="pie chart">
      {props.groups.map((g, i) => {
        const share = Math.max(0, props.values[i]) / total;
        const a0 = angle;
        const a1 = angle + share * Math.PI * 2;
        angle = a1;
        const large = a1 - a0 > Math.PI ? 1 : 0;
        const d =
          share >= 0.9999
            ? `M ${c} ${c - R} A ${R} ${R} 0 1 1 ${c - 0.01} ${c - R} Z`
            : `M ${c} ${c} L ${c + R * Math.cos(a0)} ${c + R * Math.sin(a0)} A ${R} ${R} 0 ${large} 1 ${c + R * Math.cos(a1)} ${c + R * Math.sin(a1)} Z`;
        return (
          <g key={g}>
            <path d={d} style={{ fill: COLORS[i % COLORS.length] }}>
              <title>{`${g}: ${props.values[i]} (${(share * 100).toFixed(1)}%)`}</title>
            </path>
            {i < 12 && (
              <text x={280} y={24 + i * 18} className="tick" style={{ fill: COLORS[i % COLORS.length] }}>
                ■ {g.length > 24 ? `${g.slice(0, 23)}…` : g} — {(share * 100).toFixed(1)}%
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
