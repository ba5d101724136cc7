/**
 * A gate's description as its approvers read it: `${{ NAME }}` (the pipeline format's reference, spec
 * pipeline-yaml.md) or `${{ params.NAME }}` replaced by the run's parameter of that name, so "Deploy
 * ${{ TARGET }}?" reads "Deploy production?". A name the run has no parameter for stays as written (a
 * description is text for people: nothing fails on it). Secrets are never parameters, so none can leak here.
 */
const REFERENCE = /\$\{\{\s*(?:params\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export function interpolateParams(text: string, params: Readonly<Record<string, string>>): string {
  return text.replace(REFERENCE, (whole, name: string) =>
    Object.hasOwn(params, name) ? params[name] : whole,
  );
}
