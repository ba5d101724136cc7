// Secret masking of the forms issue 12 found leaking, with real bash: a value printed across two lines,
// bash's `set -x` trace and `printf %q` of a value containing a quote (the control plane masks the same
// forms: packages/ci-server/test/reliability/masking.test.ts).
import { printfQuoted, xtraceQuoted } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { JobExecutor, JobLog, Masker } from '../../src/index.js';
import { logCollector, makeJob, makeRepo, scratchDir } from './helpers.js';

const repo = makeRepo([{ 'README.md': 'hello\n' }]);
const SECRET = `it's "a" s3cr$t (x)`;

describe('masking of split and shell-quoted secrets', () => {
  it('bash prints the forms the masker knows', () => {
    expect(xtraceQuoted(SECRET)).toBe(`it'\\''s "a" s3cr$t (x)`);
    expect(printfQuoted(SECRET)).toBe(`it\\'s\\ \\"a\\"\\ s3cr\\$t\\ \\(x\\)`);
  });

  it('a real job leaks none of them', async () => {
    const ex = new JobExecutor({ workdir: scratchDir('agent-mask-'), killGraceMs: 2_000 });
    const logs = logCollector();
    const job = makeJob(repo, {
      secrets: { TOKEN: SECRET, LONG: 'abcdefghij0123456789' },
      script: [
        'set -x; echo "$TOKEN" > /dev/null; set +x',
        'printf "%q\\n" "$TOKEN"',
        // The plain value cut in two by a newline, at several places, on stdout and on stderr.
        // biome-ignore lint/suspicious/noTemplateCurlyInString: bash substring expansions
        'printf "head %s\\n%s tail\\n" "${LONG:0:7}" "${LONG:7}"',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: bash substring expansions
        'printf "%s\\n%s\\n" "${LONG:0:15}" "${LONG:15}" >&2',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: bash substring expansions
        'printf "x%s\\n%sy\\n" "${LONG:0:1}" "${LONG:1}"',
        'echo done',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    const text = logs.text();
    for (const leak of [
      SECRET,
      xtraceQuoted(SECRET),
      printfQuoted(SECRET),
      'abcdefg',
      'hij0123456789',
      'abcdefghij01234',
      's3cr',
    ])
      expect(text, leak).not.toContain(leak);
    expect(text).toContain('head ***');
    expect(text).toContain('*** tail');
    expect(text).toContain('done');
    // Every line still arrives, numbered without gaps.
    expect(logs.lines.map((l) => l.seq)).toEqual(logs.lines.map((_, i) => i + 1));
  });

  it('a line that only looks like the start of a secret is released unchanged', async () => {
    const got: string[] = [];
    const log = new JobLog((l) => void got.push(l.text), new Masker(['abcdefgh']));
    log.write('stdout', 'ends with abc');
    log.write('stdout', 'something else');
    log.write('stdout', 'and abcd');
    await new Promise((r) => setTimeout(r, 120));
    expect(got).toEqual(['ends with abc', 'something else', 'and abcd']);
    log.write('stdout', 'split abcd');
    log.write('stdout', 'efgh here');
    log.flush();
    expect(got.slice(3)).toEqual(['split ***', '*** here']);
  });
});
