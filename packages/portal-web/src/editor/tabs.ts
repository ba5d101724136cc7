// Editor tabs of one connection: several scripts side by side, each with its own text and parameters. They
// live in localStorage per signed-in person and connection, so they survive a reload and a browser restart
// (the text never leaves the browser unless it is run or saved).

export interface EditorTab {
  id: string;
  title: string;
  sql: string;
  /** Positional parameters as typed in the params panel (JSON values or plain text). */
  params: string[];
}

export interface TabsState {
  tabs: EditorTab[];
  activeId: string;
}

const key = (username: string, connectionId: string) => `portal.tabs.v1:${username}:${connectionId}`;

function newId(): string {
  return Math.random().toString(36).slice(2, 10);
}

export function newTab(n: number, sql = ''): EditorTab {
  return { id: newId(), title: `Query ${n}`, sql, params: [] };
}

function valid(s: unknown): s is TabsState {
  if (!s || typeof s !== 'object') return false;
  const t = s as TabsState;
  return (
    Array.isArray(t.tabs) &&
    t.tabs.length > 0 &&
    t.tabs.every((x) => typeof x?.id === 'string' && typeof x.sql === 'string' && Array.isArray(x.params)) &&
    typeof t.activeId === 'string'
  );
}

export function loadTabs(username: string, connectionId: string): TabsState {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(key(username, connectionId)) ?? 'null') as unknown;
    if (valid(parsed)) {
      const active = parsed.tabs.some((t) => t.id === parsed.activeId) ? parsed.activeId : parsed.tabs[0].id;
      return { tabs: parsed.tabs, activeId: active };
    }
  } catch {
    // A damaged entry starts over with one empty tab.
  }
  const first = newTab(1);
  return { tabs: [first], activeId: first.id };
}

export function saveTabs(username: string, connectionId: string, state: TabsState): void {
  try {
    window.localStorage.setItem(key(username, connectionId), JSON.stringify(state));
  } catch {
    // Storage full or disabled: the tabs still work for this page's lifetime.
  }
}

export function addTab(s: TabsState, sql = ''): TabsState {
  const used = new Set(s.tabs.map((t) => t.title));
  let n = s.tabs.length + 1;
  while (used.has(`Query ${n}`)) n++;
  const tab = newTab(n, sql);
  return { tabs: [...s.tabs, tab], activeId: tab.id };
}

export function closeTab(s: TabsState, id: string): TabsState {
  const idx = s.tabs.findIndex((t) => t.id === id);
  if (idx < 0) return s;
  const rest = s.tabs.filter((t) => t.id !== id);
  if (rest.length === 0) {
    const first = newTab(1);
    return { tabs: [first], activeId: first.id };
  }
  const activeId = s.activeId === id ? rest[Math.min(idx, rest.length - 1)].id : s.activeId;
  return { tabs: rest, activeId };
}

export function updateTab(s: TabsState, id: string, patch: Partial<Omit<EditorTab, 'id'>>): TabsState {
  return { ...s, tabs: s.tabs.map((t) => (t.id === id ? { ...t, ...patch } : t)) };
}
