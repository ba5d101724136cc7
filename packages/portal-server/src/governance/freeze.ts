// Freeze windows (decisions.md `freezeWindows: [{from, to, reason}]`): writes are refused while the clock is
// inside one. Bounds are inclusive; an unparseable window is ignored (the registry refuses those at load).
import type { FreezeWindow } from '../datasources/types.js';

/** The first window containing `now`, or undefined. */
export function activeFreezeWindow(windows: readonly FreezeWindow[], now: Date): FreezeWindow | undefined {
  const t = now.getTime();
  return windows.find((w) => {
    const from = Date.parse(w.from);
    const to = Date.parse(w.to);
    return Number.isFinite(from) && Number.isFinite(to) && from <= t && t <= to;
  });
}
