// The environment a job receives, decided at dispatch (pure; no I/O). Layers, later ones winning: the
// built-ins of spec/pipeline-yaml.md, the pipeline's variables, the job's variables, the run's parameters,
// the job run's matrix values. Secrets travel separately (the agent exports them last and masks them).
//
// `${{ NAME }}` inside variables, parameters and service settings is replaced by the value NAME has in those
// layers, else by the secret NAME (project secret, else global). References inside a referenced value are
// resolved too (a cycle or a name nobody defines fails the job with a message naming it). A secret pulled in
// by a reference is added to the job's secrets so that its value is masked wherever it lands. Plain
// `${NAME}` is left to the shell.

export const REFERENCE = /\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** Largest resolved value; references that multiply a value beyond it fail the job. */
export const MAX_RESOLVED_CHARS = 256 * 1024;
const MAX_DEPTH = 16;

export class JobReferenceError extends Error {
  override name = 'JobReferenceError';
}

/** Every name referenced as `${{ NAME }}` in the texts. */
export function referencedNames(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(REFERENCE)) out.add(m[1]);
  return out;
}

export interface EnvLayers {
  builtins: Record<string, string>;
  pipelineVariables: Record<string, string>;
  jobVariables: Record<string, string>;
  parameters: Record<string, string>;
  matrix: Record<string, string>;
}

/** Values that may contain references (built-ins and matrix values are literal data). */
function templated(layers: EnvLayers): Set<string> {
  return new Set([
    ...Object.keys(layers.pipelineVariables),
    ...Object.keys(layers.jobVariables),
    ...Object.keys(layers.parameters),
  ]);
}

export function mergeLayers(layers: EnvLayers): Record<string, string> {
  return {
    ...layers.builtins,
    ...layers.pipelineVariables,
    ...layers.jobVariables,
    ...layers.parameters,
    ...layers.matrix,
  };
}

/**
 * Resolves references against the merged layers and the available secrets. `secrets` holds every secret
 * the job may reach (looked up by the caller for the names `referencedNames` found plus the job's
 * `secrets:`); `used` collects the secret names a reference pulled in.
 */
export class Resolver {
  private readonly merged: Record<string, string>;
  private readonly templatedNames: Set<string>;
  private readonly done = new Map<string, string>();
  readonly used = new Set<string>();

  constructor(
    layers: EnvLayers,
    private readonly secrets: ReadonlyMap<string, string>,
  ) {
    this.merged = mergeLayers(layers);
    this.templatedNames = templated(layers);
  }

  /** Replaces every reference in `text`; throws JobReferenceError naming an unknown or cyclic name. */
  resolve(text: string, where: string, stack: string[] = []): string {
    if (!text.includes('${{')) return text;
    const out = text.replace(REFERENCE, (_m, name: string) => this.value(name, where, stack));
    if (out.length > MAX_RESOLVED_CHARS)
      throw new JobReferenceError(`${where} is longer than ${MAX_RESOLVED_CHARS} characters once resolved`);
    return out;
  }

  private value(name: string, where: string, stack: string[]): string {
    const cached = this.done.get(name);
    if (cached !== undefined) return cached;
    if (stack.includes(name))
      throw new JobReferenceError(`references in ${where} form a cycle (${[...stack, name].join(' → ')})`);
    if (stack.length >= MAX_DEPTH) throw new JobReferenceError(`references in ${where} nest too deeply`);
    let value: string;
    if (Object.hasOwn(this.merged, name)) {
      const raw = this.merged[name];
      value = this.templatedNames.has(name) ? this.resolve(raw, where, [...stack, name]) : raw;
    } else if (this.secrets.has(name)) {
      value = this.secrets.get(name)!;
      this.used.add(name);
    } else {
      throw new JobReferenceError(
        `\${{ ${name} }} in ${where} names no parameter, variable or secret of this project`,
      );
    }
    this.done.set(name, value);
    return value;
  }

  /** The merged environment with every templated value resolved. */
  environment(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const k of Object.keys(this.merged)) env[k] = this.value(k, `${k}`, []);
    return env;
  }
}
