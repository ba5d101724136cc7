// A fresh workspace per job run attempt: `<workdir>/jobs/<jobRunId>-<attempt>/` holding the checkout
// (`src/`), the job's TMPDIR (`tmp/`) and the agent's own files (`.ci/`: the generated script, cache
// archives in transit). Removed after the job; kept after a failure when the agent is configured to.
import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface Workspace {
  root: string;
  /** The git checkout; the script's working directory. */
  checkout: string;
  /** The job's TMPDIR. */
  tmp: string;
  /** Agent-private files of this job. */
  meta: string;
  remove(): Promise<void>;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function workspacePath(workdir: string, jobRunId: string, attempt: number): string {
  // The id becomes a directory name: refuse anything that could climb out of <workdir>/jobs.
  if (!SAFE_ID.test(jobRunId) || jobRunId.includes('..')) throw new Error(`invalid job run id: ${jobRunId}`);
  if (!Number.isInteger(attempt) || attempt < 0) throw new Error(`invalid attempt: ${attempt}`);
  return join(workdir, 'jobs', `${jobRunId}-${attempt}`);
}

/** Creates an empty workspace; a leftover directory of the same attempt (an agent crash) is wiped first. */
export function createWorkspace(workdir: string, jobRunId: string, attempt: number): Workspace {
  const root = workspacePath(workdir, jobRunId, attempt);
  rmSync(root, { recursive: true, force: true });
  const ws = {
    root,
    checkout: join(root, 'src'),
    tmp: join(root, 'tmp'),
    meta: join(root, '.ci'),
    async remove() {
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
  for (const dir of [ws.checkout, ws.tmp, ws.meta]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return ws;
}
