// A labelled filter drop-down whose first option means "no filter" (the empty value): the runs list, the
// webhook deliveries and the notification history filter through it.
export interface FilterOption {
  value: string;
  label: string;
}

export function FilterSelect(props: {
  label: string;
  value: string;
  /** The text of the "no filter" choice. */
  all: string;
  options: FilterOption[];
  onChange(value: string): void;
  disabled?: boolean;
}) {
  return (
    <label className="inline">
      {props.label}
      <select
        aria-label={props.label}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">{props.all}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
