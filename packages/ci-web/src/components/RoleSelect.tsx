// The one drop-down of the three roles (viewer < maintainer < admin): a user's role in the users table, a
// new user's and a new service account's.
import { useId } from 'react';
import type { Role } from '../api/types';

export const ROLES: Role[] = ['viewer', 'maintainer', 'admin'];

export function RoleSelect(props: {
  value: Role;
  onChange(role: Role): void;
  disabled?: boolean;
  /** A visible label wrapping the drop-down (forms); tables name it with `aria-label` instead. */
  label?: string;
  'aria-label'?: string;
}) {
  const id = useId();
  const select = (
    <select
      id={id}
      aria-label={props['aria-label']}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value as Role)}
    >
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
  if (!props.label) return select;
  return (
    <label className="inline" htmlFor={id}>
      {props.label}
      {select}
    </label>
  );
}
