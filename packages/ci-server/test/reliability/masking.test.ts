// The control plane's masker (second line of defence behind the agent's) masks the shell-quoted forms of a
// secret the agent masks too — `set -x` traces and `printf %q` — because both use @app/kit's secretForms.
import { createMasker, printfQuoted, xtraceQuoted } from '@app/kit';
import { describe, expect, it } from 'vitest';

const SECRET = `it's "a" s3cr$t (x)`;

describe('server-side masking', () => {
  it('masks the set -x and printf %q forms of a value with quotes', () => {
    const mask = createMasker([SECRET]);
    expect(mask(`+ echo '${xtraceQuoted(SECRET)}'`)).toBe(`+ echo '***'`);
    expect(mask(`value: ${printfQuoted(SECRET)}`)).toBe('value: ***');
    expect(mask(`plain ${SECRET}`)).toBe('plain ***');
    expect(mask('nothing here')).toBe('nothing here');
  });
});
