// A loading indicator announced to screen readers (role="status") with its label; CSS-only animation that
// stops under `prefers-reduced-motion`.
export function Spinner({ label = 'Loading…', size = 'md' }: { label?: string; size?: 'sm' | 'md' }) {
  return (
    <span className={`kit-spinner-wrap${size === 'sm' ? ' kit-spinner-wrap--sm' : ''}`} role="status">
      <span className={`kit-spinner kit-spinner--${size}`} aria-hidden="true" />
      {label && <span className="kit-spinner-label">{label}</span>}
    </span>
  );
}

/** A spinner centred in the space a page or panel would fill. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="kit-state">
      <Spinner label={label} />
    </div>
  );
}
