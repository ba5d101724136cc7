// gocdnext's `id_tokens` and its gate forms in the parser: the stored form, and the errors naming each key.
import { describe, expect, it } from 'vitest';
import { assembleBundle, formatBundleError } from './bundle-parse.js';
import type { PipelineDocument } from './bundle-types.js';

const parse = (text: string) => assembleBundle({ slug: 's', name: 's' }, [{ name: 'ci.yaml', text }]);
const doc = (text: string): PipelineDocument => {
  const r = parse(text);
  if (!r.ok) throw new Error(r.errors.map(formatBundleError).join('\n'));
  return r.bundle.pipelines[0].document;
};
const errors = (text: string) => {
  const r = parse(text);
  return r.ok ? '' : r.errors.map(formatBundleError).join('\n');
};

describe('id_tokens', () => {
  it('stores each token with its audiences as a list', () => {
    const d = doc(`jobs:
  deploy:
    script: [./deploy.sh]
    id_tokens:
      GCP_ID_TOKEN: {aud: https://iam.googleapis.com/x}
      VAULT_JWT: {aud: [https://vault.example.com, https://vault-dr.example.com]}`);
    expect(d.jobs.deploy.id_tokens).toEqual({
      GCP_ID_TOKEN: { aud: ['https://iam.googleapis.com/x'] },
      VAULT_JWT: { aud: ['https://vault.example.com', 'https://vault-dr.example.com'] },
    });
  });

  it('refuses a missing aud, a reserved or invalid name, a name clash and a token on a gate', () => {
    const all = errors(`jobs:
  a: {script: [x], id_tokens: {T: {}}}
  b: {script: [x], id_tokens: {CI_TOKEN: {aud: x}, 1BAD: {aud: x}}}
  c: {script: [x], variables: {T: v}, id_tokens: {T: {aud: x}}}
  d: {script: [x], id_tokens: {T: {aud: x, sub: y}}}
  e: {script: [x], id_tokens: {T: {aud: []}}}
  g: {approval: {}, id_tokens: {T: {aud: x}}}`);
    expect(all).toMatch(/jobs\.a\.id_tokens\.T\.aud: missing/);
    expect(all).toMatch(/jobs\.b\.id_tokens\.CI_TOKEN: "CI_TOKEN" is not a valid id_tokens name/);
    expect(all).toMatch(/jobs\.b\.id_tokens\["1BAD"\]: "1BAD" is not a valid id_tokens name/);
    expect(all).toMatch(/jobs\.c\.id_tokens\.T: "T" is also a variable, secret or matrix dimension/);
    expect(all).toMatch(/jobs\.d\.id_tokens\.T\.sub/);
    expect(all).toMatch(/jobs\.e\.id_tokens\.T\.aud/);
    expect(all).toMatch(/jobs\.g\.id_tokens: a manual gate \(approval\) cannot have "id_tokens"/);
  });
});

it('refuses an id_tokens name that is a pipeline variable', () => {
  expect(errors('variables: {T: x}\njobs:\n  a: {script: [x], id_tokens: {T: {aud: y}}}')).toMatch(
    /jobs\.a\.id_tokens\.T: "T" is also a pipeline variable/,
  );
});

describe("gate windows in gocdnext's spelling", () => {
  it("stores the job's timeout on a gate as the gate's window; never and off wait until answered", () => {
    const d = doc(`jobs:
  a: {approval: {description: go}, timeout: 24h}
  b: {approval: {}, timeout: never}
  c: {approval: {timeout: "off"}}
  build: {script: [x], timeout: 10m}`);
    expect(d.jobs.a.approval?.timeout).toBe(24 * 3600_000);
    expect(d.jobs.a.timeout).toBeUndefined();
    expect(d.jobs.b.approval?.timeout).toBeUndefined();
    expect(d.jobs.c.approval?.timeout).toBeUndefined();
    expect(d.jobs.build.timeout).toBe(600_000);
  });

  it('refuses both spellings on one gate', () => {
    expect(errors('jobs:\n  a: {approval: {timeout: 1h}, timeout: 2h}')).toMatch(
      /jobs\.a\.timeout: "timeout" and "approval\.timeout" are one setting/,
    );
  });
});
