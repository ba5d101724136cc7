/**
 * Test helpers for the bundle parser tests: tiny documents to splice cases into, and error extraction.
 */
import type { BundleError } from './bundle-types.js';

export function errorsOf(result: { ok: true } | { ok: false; errors: BundleError[] }): BundleError[] {
  if (result.ok) throw new Error('expected errors, the document parsed');
  return result.errors;
}

/** A valid pipeline document; `jobs` and `extra` (top-level keys before `jobs:`) are spliced in. */
export const pipeline = (jobs: string, extra = '') =>
  `name: p\nstages: [build, test]\n${extra}jobs:\n${jobs || '  a: { stage: build, script: [make] }\n'}`;

/** A bundle of project `shop` around the given `pipelines:` items. */
export const bundleOf = (pipelines: string) => `project: {slug: shop, name: Shop}\npipelines:\n${pipelines}`;

/** A name one character too long. */
export const long = 'x'.repeat(201);
