// The lazy Monaco loader: the editor (several MB with its workers) is a separate chunk fetched the first time
// a page asks for it, and only once however many editors mount. Pages that never edit never pay for it.
export type MonacoModule = typeof import('./setup');

let loading: Promise<MonacoModule> | undefined;

export function loadMonaco(): Promise<MonacoModule> {
  loading ??= import('./setup').catch((err: unknown) => {
    loading = undefined; // a failed chunk load (server restarted mid-deploy) may be retried
    throw err;
  });
  return loading;
}
