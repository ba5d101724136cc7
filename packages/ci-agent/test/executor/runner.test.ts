import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatDuration,
  hostEnv,
  JobLog,
  Masker,
  processAlive,
  renderScript,
  startScript,
} from '../../src/index.js';
import { logCollector, scratchDir } from './helpers.js';

function run(script: string[], extra: { timeoutMs?: number; env?: Record<string, string> } = {}) {
  const dir = scratchDir('runner-');
  const logs = logCollector();
  const log = new JobLog(logs.sink, new Masker([]));
  const handle = startScript({
    script,
    cwd: dir,
    env: { ...hostEnv(), ...extra.env },
    scriptPath: join(dir, '.script.sh'),
    log,
    timeoutMs: extra.timeoutMs,
    killGraceMs: 2_000,
  });
  return { handle, logs, dir };
}

async function waitForFile(path: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const text = readFileSync(path, 'utf8').trim();
      if (text) return text;
    } catch {
      // not there yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${path} never appeared`);
}

describe('script runner', () => {
  it('echoes each line as "+ line", keeps state between lines and numbers lines in order', async () => {
    const { handle, logs } = run([
      'cd /',
      'export GREETING=hi',
      'echo "$GREETING from $(pwd)"',
      'echo oops >&2',
    ]);
    const res = await handle.result;
    expect(res).toMatchObject({ exitCode: 0, timedOut: false, canceled: false, summary: 'success' });
    const out = logs.stdout();
    expect(out).toEqual([
      '+ cd /',
      '+ export GREETING=hi',
      '+ echo "$GREETING from $(pwd)"',
      'hi from /',
      '+ echo oops >&2',
      'oops',
    ]);
    expect(logs.lines.map((l) => l.seq)).toEqual(logs.lines.map((_, i) => i + 1));
    expect(Number.isNaN(Date.parse(logs.lines[0].at))).toBe(false);
  });

  it('keeps stdout and stderr in one sequence, exactly as the job wrote them', async () => {
    // 20,000 lines alternating between the two streams, with bursts on each so both pipes would fill.
    const { handle, logs } = run([
      'for i in $(seq 1 5000); do echo "out $i"; echo "err $i" >&2; done',
      'for i in $(seq 1 2500); do echo "burst-out $i"; echo "burst-out-b $i"; echo "burst-err $i" >&2; echo "burst-err-b $i" >&2; done',
    ]);
    expect((await handle.result).exitCode).toBe(0);
    const job = logs.lines.filter((l) => !l.text.startsWith('+ ')).map((l) => l.text);
    const expected: string[] = [];
    for (let i = 1; i <= 5000; i++) expected.push(`out ${i}`, `err ${i}`);
    for (let i = 1; i <= 2500; i++)
      expected.push(`burst-out ${i}`, `burst-out-b ${i}`, `burst-err ${i}`, `burst-err-b ${i}`);
    expect(job).toEqual(expected);
    expect(logs.lines.map((l) => l.seq)).toEqual(logs.lines.map((_, i) => i + 1));
  });

  it('stops at the first failing line and reports its exit code (pipefail included)', async () => {
    const { handle, logs } = run(['echo before', 'false | true', 'echo never']);
    const res = await handle.result;
    expect(res.exitCode).toBe(1);
    expect(res.summary).toBe('exit code 1');
    expect(logs.text()).toContain('before');
    expect(logs.text()).not.toContain('\nnever');

    const three = run(['(exit 3)', 'echo never']);
    expect((await three.handle.result).exitCode).toBe(3);
  });

  it('formats durations for messages', () => {
    expect([500, 1500, 2000, 90_000, 1_800_000, 3_723_000].map(formatDuration)).toEqual([
      '500ms',
      '1.5s',
      '2s',
      '1m30s',
      '30m',
      '1h2m3s',
    ]);
  });

  it('quotes lines safely in the echo', () => {
    expect(renderScript(["echo 'it''s'"])).toContain(`printf '%s\\n' '+ echo '\\''it'\\'''\\''s'\\'''`);
  });

  it('kills the whole process group on timeout, children included', async () => {
    const { handle, logs, dir } = run([`sleep 600 & echo $! > child.pid`, 'sleep 600'], { timeoutMs: 1_500 });
    const childPid = Number(await waitForFile(join(dir, 'child.pid')));
    expect(processAlive(childPid)).toBe(true);
    const res = await handle.result;
    expect(res.timedOut).toBe(true);
    expect(res.summary).toBe('timed out after 1.5s');
    expect(res.exitCode).not.toBe(0);
    expect(processAlive(childPid)).toBe(false);
    expect(processAlive(res.pid)).toBe(false);
    expect(logs.text()).toContain('timed out after 1.5s');
  });

  it('cancel() stops a running script within seconds, even one that ignores SIGTERM', async () => {
    const { handle, dir } = run(["trap '' TERM", 'echo $$ > shell.pid', 'sleep 600']);
    await waitForFile(join(dir, 'shell.pid'));
    const started = Date.now();
    const res = await handle.cancel('canceled by a test');
    expect(res.canceled).toBe(true);
    expect(res.summary).toBe('canceled by a test');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(processAlive(res.pid)).toBe(false);
  });

  it('ends processes a successful script left behind', async () => {
    const { handle, dir } = run(['sleep 600 & echo $! > bg.pid']);
    const res = await handle.result;
    expect(res.exitCode).toBe(0);
    expect(processAlive(Number(readFileSync(join(dir, 'bg.pid'), 'utf8')))).toBe(false);
  });
});
