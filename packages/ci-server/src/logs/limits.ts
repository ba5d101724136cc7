// Size limits of a job's log, shared by the store and the row helpers.

export const DEFAULT_MAX_LINES_PER_JOB = 500_000;
/** Characters of text per job run attempt (about 64 MiB of ASCII). */
export const DEFAULT_MAX_CHARS_PER_JOB = 64 * 1024 * 1024;
/** Longer lines are cut (the agent already splits at this size). */
export const MAX_LINE_CHARS = 65_536;
