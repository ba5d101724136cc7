// Writes generated passwords to HashiCorp Vault's KV version 2 secrets engine over its HTTP API:
// `POST {VAULT_ADDR}/v1/{mount}/data/{path}` with `X-Vault-Token` and `{"data": {...}}`, answered
// `{"data": {"version": n, ...}}`. Any other answer (or no answer) is a refusal the route reports as 502;
// Vault's own error text (`{"errors": [...]}`) is passed on, never the secret.

export interface VaultSettings {
  addr: string;
  token: string;
  mount: string;
}

export class VaultRefused extends Error {
  override name = 'VaultRefused';
}

/** A KV path: segments of letters, digits, `_`, `-`, `.`; no empty, `.` or `..` segment. */
export const VAULT_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

export async function writeKvSecret(
  v: VaultSettings,
  path: string,
  data: Record<string, unknown>,
  timeoutMs = 10_000,
): Promise<{ version?: number }> {
  const url = `${v.addr.replace(/\/+$/, '')}/v1/${encodeURIComponent(v.mount)}/data/${path.split('/').map(encodeURIComponent).join('/')}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vault-token': v.token },
      body: JSON.stringify({ data }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new VaultRefused(`The vault did not answer: ${(err as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let detail = `HTTP ${res.status}`;
    try {
      const errors = (JSON.parse(text) as { errors?: unknown[] }).errors;
      if (Array.isArray(errors) && errors.length)
        detail += `: ${errors.map(String).join('; ').slice(0, 300)}`;
    } catch {
      // not JSON: the status says enough
    }
    throw new VaultRefused(`The vault refused the write (${detail})`);
  }
  try {
    const version = (JSON.parse(text) as { data?: { version?: unknown } }).data?.version;
    return typeof version === 'number' ? { version } : {};
  } catch {
    return {};
  }
}
