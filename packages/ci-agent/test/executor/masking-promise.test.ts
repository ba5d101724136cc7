// What the masker promises (docs/ci-agent.md, "What masking promises"), checked with a real job printing a
// secret the ways a careless or curious script would: as is, base64 on one line, URL-encoded, with colour
// codes between its characters, split across two lines. And what it does not promise, asserted so the docs
// stay honest: transformations it cannot know (hex, reversed, base64 wrapped mid-value by `base64 -w`).
import { describe, expect, it } from 'vitest';
import { JobExecutor, JobLog, Masker } from '../../src/index.js';
import { logCollector, makeJob, makeRepo, scratchDir } from './helpers.js';

const repo = makeRepo([{ 'README.md': 'hello\n' }]);
const SECRET = 'pa55-Word_w1th.sym/bols';

describe('masking: the promise', () => {
  it('a job printing the value as is, base64, URL-encoded, coloured or split leaks none of them', async () => {
    const ex = new JobExecutor({ workdir: scratchDir('agent-mask-promise-'), killGraceMs: 1_000 });
    const logs = logCollector();
    const job = makeJob(repo, {
      secrets: { TOKEN: SECRET },
      script: [
        'echo "plain $TOKEN"',
        'printf "b64 %s\\n" "$(printf %s "$TOKEN" | base64 -w0)"',
        'printf "in-b64 %s\\n" "$(printf "prefix:%s" "$TOKEN" | base64 -w0)"',
        `printf "url %s\\n" "$(printf %s "$TOKEN" | sed 's|/|%2F|g')"`,
        // A colour code after every character: the UI shows the plain value.
        `printf "ansi %s\\n" "$(printf %s "$TOKEN" | sed 's/./&\\x1b[0m/g')"`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: bash substring expansions
        'printf "split %s\\n%s end\\n" "${TOKEN:0:9}" "${TOKEN:9}"',
        'echo done',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    const out = logs.stdout().filter((l) => !l.startsWith('+ '));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes start with ESC
    const shown = out.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '')).join('\n');
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 24));
    expect(shown).not.toContain('sym%2Fbols');
    expect(shown).not.toContain('pa55-Word');
    expect(out).toContain('plain ***');
    expect(out).toContain('b64 ***');
    expect(out).toContain('url ***');
    expect(out).toContain('ansi ***');
    expect(out).toContain('split ***');
    expect(out).toContain('done');
  });

  it('a coloured line without a secret keeps its colours', () => {
    const got: string[] = [];
    const log = new JobLog((l) => void got.push(l.text), new Masker([SECRET]));
    log.write('stdout', '\x1b[32mok\x1b[0m all green');
    log.flush();
    expect(got).toEqual(['\x1b[32mok\x1b[0m all green']);
  });

  it('does not promise transformations it cannot know (documented): hex, reversed, wrapped base64', () => {
    const m = new Masker([SECRET]);
    const hex = Buffer.from(SECRET).toString('hex');
    expect(m.mask(hex)).toBe(hex);
    const reversed = [...SECRET].reverse().join('');
    expect(m.mask(reversed)).toBe(reversed);
    // `base64 -w 8` cuts the encoded value into lines that are each too short to identify it.
    const wrapped = Buffer.from(SECRET)
      .toString('base64')
      .match(/.{1,8}/g)!;
    expect(wrapped.map((l) => m.mask(l))).toEqual(wrapped);
  });
});
