// Keyboard shortcuts for both UIs: pages register keys with `useShortcut` while they are mounted, and `?`
// opens a dialog listing every shortcut in effect, grouped. A key is a KeyboardEvent.key ("j", "?", "/",
// "Escape"); a space makes a sequence ("g r": press g, then r within a second), as GitHub and Gmail do.
// Shortcuts never fire while typing in a field, an editor or with Ctrl/Meta/Alt held.
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { Dialog } from '../components/Dialog';

export interface Shortcut {
  keys: string;
  description: string;
  group?: string;
  handler(event: KeyboardEvent): void;
}

class Registry {
  private entries = new Map<number, Shortcut>();
  private nextId = 1;
  private listeners = new Set<() => void>();
  private snapshot: Shortcut[] = [];

  add(s: Shortcut): number {
    const id = this.nextId++;
    this.entries.set(id, s);
    this.changed();
    return id;
  }
  update(id: number, s: Shortcut): void {
    this.entries.set(id, s);
  }
  remove(id: number): void {
    this.entries.delete(id);
    this.changed();
  }
  list(): Shortcut[] {
    return this.snapshot;
  }
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  private changed() {
    this.snapshot = [...this.entries.values()];
    for (const l of this.listeners) l();
  }
}

const RegistryContext = createContext<Registry | null>(null);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  return Boolean(target.closest('.monaco-editor'));
}

export function ShortcutsProvider({ children }: { children: ReactNode }) {
  const [registry] = useState(() => new Registry());
  const [helpOpen, setHelpOpen] = useState(false);
  const pending = useRef<{ key: string; at: number } | null>(null);

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === '?') {
        e.preventDefault();
        setHelpOpen(true);
        return;
      }
      const prev = pending.current && Date.now() - pending.current.at < 1000 ? pending.current.key : null;
      const candidates = registry.list();
      const sequence = prev ? `${prev} ${e.key}` : null;
      const hit =
        (sequence && candidates.find((s) => s.keys === sequence)) || candidates.find((s) => s.keys === e.key);
      if (hit) {
        pending.current = null;
        e.preventDefault();
        hit.handler(e);
        return;
      }
      // The first key of a sequence waits for its second.
      pending.current = candidates.some((s) => s.keys.startsWith(`${e.key} `))
        ? { key: e.key, at: Date.now() }
        : null;
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [registry]);

  return (
    <RegistryContext.Provider value={registry}>
      {children}
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} registry={registry} />
    </RegistryContext.Provider>
  );
}

/** Registers a shortcut while the calling component is mounted (and `enabled`). */
export function useShortcut(
  keys: string,
  description: string,
  handler: (event: KeyboardEvent) => void,
  options: { group?: string; enabled?: boolean } = {},
): void {
  const registry = useContext(RegistryContext);
  const latest = useRef(handler);
  latest.current = handler;
  const enabled = options.enabled ?? true;
  const group = options.group;
  useEffect(() => {
    if (!registry || !enabled) return;
    const id = registry.add({ keys, description, group, handler: (e) => latest.current(e) });
    return () => registry.remove(id);
  }, [registry, keys, description, group, enabled]);
}

function ShortcutsDialog({
  open,
  onClose,
  registry,
}: {
  open: boolean;
  onClose(): void;
  registry: Registry;
}) {
  const list = useSyncExternalStore(registry.subscribe, () => registry.list());
  const groups = new Map<string, Shortcut[]>();
  for (const s of [{ keys: '?', description: 'Show this help', group: 'General', handler() {} }, ...list]) {
    const g = s.group ?? 'General';
    groups.set(g, [...(groups.get(g) ?? []), s]);
  }
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      {[...groups].map(([group, items]) => (
        <section key={group} className="kit-shortcuts-group">
          <h3>{group}</h3>
          <dl className="kit-shortcuts">
            {items.map((s) => (
              <div key={`${s.keys}-${s.description}`}>
                <dt>
                  {s.keys.split(' ').map((k, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the keys of a sequence never reorder
                    <span key={`${k}-${i}`}>
                      {i > 0 && ' then '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{s.description}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
