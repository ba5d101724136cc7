// What every host's commit-status call is made of: the inputs (repository, commit, state, link, name,
// description, credentials) and the HTTP request a host module builds from them (github.ts, gitlab.ts,
// bitbucket.ts). The sender (sender.ts) posts it; nothing here does I/O.
export interface StatusInput {
  /** The API root without a trailing slash (`https://api.github.com`, `…/api/v4`, `…/2.0`). */
  apiUrl: string;
  /** `owner/repo` (GitLab: the full project path). */
  repository: string;
  sha: string;
  /** The host's own state word. */
  state: string;
  description: string;
  context: string;
  /** The run page. */
  targetUrl: string;
  token: string;
  /** Bitbucket app passwords go with a username (Basic auth). */
  username: string | null;
}

export interface StatusRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export const USER_AGENT = 'ci-control-plane';

/** Each path segment escaped on its own (`acme/shop` stays two segments). */
export function segments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
