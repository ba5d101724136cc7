// The shape of an OIDC provider definition, shared by CI_CONFIG (`auth.oidc_providers`) and the admin API,
// and its validation: every problem is reported with the field it concerns.
import { ROLES, type Role } from '../roles.js';
import type { DefaultRole, RoleMap } from './roles.js';

export interface ProviderDefinition {
  name: string;
  display: string;
  issuer: string;
  client_id: string;
  /** Absent for public clients (PKCE only). */
  client_secret?: string;
  scopes: string[];
  role_claim: string | null;
  role_map: RoleMap;
  default_role: DefaultRole;
}

/** Names the login routes use for other meanings. */
export const RESERVED_NAMES = new Set(['local', 'oidc', 'providers', 'callback', 'login', 'logout']);
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const isLoopback = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** Validates an untrusted definition; returns it normalised or the list of problems. */
export function parseProviderDefinition(
  input: unknown,
): { ok: true; value: ProviderDefinition } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, problems: ['must be an object'] };
  }
  const o = input as Record<string, unknown>;
  const str = (key: string, required: boolean, max = 2000): string | undefined => {
    const v = o[key];
    if (v === undefined || v === null || v === '') {
      if (required) problems.push(`${key} is required`);
      return undefined;
    }
    if (typeof v !== 'string') {
      problems.push(`${key} must be a string`);
      return undefined;
    }
    if (v.length > max) problems.push(`${key} must be at most ${max} characters`);
    return v;
  };
  const name = str('name', true, 64);
  if (name !== undefined && !NAME.test(name))
    problems.push('name must be 1-64 characters of a-z, 0-9, "-" or "_", starting with a letter or digit');
  if (name !== undefined && RESERVED_NAMES.has(name)) problems.push(`name "${name}" is reserved`);
  const display = str('display', false, 200) ?? name ?? '';
  const issuer = str('issuer', true);
  if (issuer !== undefined) {
    try {
      const u = new URL(issuer);
      if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname)))
        problems.push('issuer must be an https URL (plain http is accepted only for loopback addresses)');
    } catch {
      problems.push('issuer must be an absolute URL');
    }
  }
  const clientId = str('client_id', true, 500);
  const clientSecret = str('client_secret', false, 2000);
  let scopes = ['openid', 'profile', 'email'];
  if (o.scopes !== undefined && o.scopes !== null) {
    const raw = typeof o.scopes === 'string' ? o.scopes.split(/\s+/).filter(Boolean) : o.scopes;
    if (!Array.isArray(raw) || raw.some((s) => typeof s !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(s)))
      problems.push('scopes must be a list of scope names');
    else scopes = raw.includes('openid') ? [...raw] : ['openid', ...raw];
  }
  const roleClaim = str('role_claim', false, 500) ?? null;
  const roleMap: RoleMap = {};
  if (o.role_map !== undefined && o.role_map !== null) {
    if (typeof o.role_map !== 'object' || Array.isArray(o.role_map))
      problems.push('role_map must be an object');
    else {
      for (const [role, values] of Object.entries(o.role_map as Record<string, unknown>)) {
        if (!(ROLES as readonly string[]).includes(role)) {
          problems.push(`role_map key "${role}" is not a role (${ROLES.join(', ')})`);
          continue;
        }
        const list = typeof values === 'string' ? [values] : values;
        if (!Array.isArray(list) || list.some((v) => typeof v !== 'string' && typeof v !== 'number'))
          problems.push(`role_map.${role} must be a list of claim values`);
        else roleMap[role as Role] = list.map(String);
      }
    }
  }
  let defaultRole: DefaultRole = 'viewer';
  if (o.default_role !== undefined && o.default_role !== null) {
    if (o.default_role === 'none' || (ROLES as readonly unknown[]).includes(o.default_role))
      defaultRole = o.default_role as DefaultRole;
    else problems.push(`default_role must be one of ${ROLES.join(', ')} or none`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      name: name!,
      display,
      issuer: issuer!,
      client_id: clientId!,
      ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
      scopes,
      role_claim: roleClaim,
      role_map: roleMap,
      default_role: defaultRole,
    },
  };
}
