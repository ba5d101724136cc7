// The environment a job's script and services see. Only an allow-list of the agent's own environment is
// passed through (PATH, HOME, locale, proxies, SSH agent): the agent's variables include CI_AGENT_TOKEN,
// which no job may read. On top come the built-ins, the job's env from the server (variables, parameters,
// matrix values; it wins over the built-ins it repeats) and finally the secrets.
import { builtinEnv, type JobAssignment } from '../job-spec.js';

export const INHERITED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'SSH_AUTH_SOCK',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/** The allow-listed part of the agent's environment (plus every LC_* locale variable). */
export function hostEnv(
  source: NodeJS.ProcessEnv = process.env,
  names = INHERITED_ENV,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (v === undefined) continue;
    if (names.includes(k) || k.startsWith('LC_')) out[k] = v;
  }
  return out;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface JobEnvironment {
  env: Record<string, string>;
  /** Entries dropped because a process environment cannot hold them. */
  rejected: string[];
}

export function buildJobEnv(
  job: JobAssignment,
  paths: { checkout: string; tmp: string },
  base: Record<string, string>,
): JobEnvironment {
  const env: Record<string, string> = { ...base };
  const rejected: string[] = [];
  const put = (source: Record<string, string>, what: string) => {
    for (const [k, v] of Object.entries(source)) {
      const value = String(v ?? '');
      if (!NAME.test(k) || value.includes('\0')) {
        rejected.push(`${what} ${NAME.test(k) ? k : JSON.stringify(k)}`);
        continue;
      }
      env[k] = value;
    }
  };
  put(builtinEnv(job), 'built-in');
  put({ CI_WORKSPACE: paths.checkout, TMPDIR: paths.tmp }, 'agent variable');
  put(job.env, 'variable');
  put(job.secrets, 'secret');
  return { env, rejected };
}
