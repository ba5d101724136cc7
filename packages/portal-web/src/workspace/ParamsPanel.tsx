import { Button } from '@app/web-kit';
// The positional parameters of an editor tab: one box per parameter, labelled with the engine's mark
// ($1, :1, @p1 or ?1), added and removed here and sent with every run of the tab.

export function ParamsPanel(props: { params: string[]; style: string; onChange: (p: string[]) => void }) {
  const mark = (i: number) =>
    props.style === '$n'
      ? `$${i + 1}`
      : props.style === ':n'
        ? `:${i + 1}`
        : props.style === '@pn'
          ? `@p${i + 1}`
          : `?${i + 1}`;
  return (
    <fieldset className="params-panel" aria-label="Parameters">
      <legend className="muted small">
        Positional parameters ({props.style}) — numbers, true/false, null, or text; "quoted" forces text
      </legend>
      {props.params.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: parameters are positional
        <label key={i} className="param">
          <span className="mono">{mark(i)}</span>
          <input
            aria-label={`Parameter ${i + 1}`}
            value={p}
            onChange={(e) => props.onChange(props.params.map((x, j) => (j === i ? e.target.value : x)))}
          />
          <button
            type="button"
            className="icon-btn"
            aria-label={`Remove parameter ${i + 1}`}
            onClick={() => props.onChange(props.params.filter((_, j) => j !== i))}
          >
            ✕
          </button>
        </label>
      ))}
      <Button size="sm" onClick={() => props.onChange([...props.params, ''])}>
        + Parameter
      </Button>
    </fieldset>
  );
}
