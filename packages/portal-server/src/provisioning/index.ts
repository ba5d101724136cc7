// Wires account provisioning into a portal server: the vault settings (VAULT_ADDR, VAULT_TOKEN,
// VAULT_KV_MOUNT) and the service the routes call.
import { AccountService, type AccountServiceDeps } from './service.js';

export { AccountService } from './service.js';

export function createAccountService(
  settings: { vaultAddr?: string; vaultToken?: string; vaultKvMount?: string },
  deps: Omit<AccountServiceDeps, 'vault'>,
): AccountService {
  const vault =
    settings.vaultAddr && settings.vaultToken
      ? { addr: settings.vaultAddr, token: settings.vaultToken, mount: settings.vaultKvMount ?? 'secret' }
      : undefined;
  return new AccountService({ ...deps, vault });
}
