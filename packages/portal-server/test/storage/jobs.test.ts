import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { JobWorker } from '../../src/storage/job-worker.js';
import { openPortalStore, type PortalStore } from '../../src/storage/store.js';
import { JWT, openStore, type StoreKind } from './helpers.js';

const opened: PortalStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function fresh(kind: StoreKind, options = {}) {
  const r = await openStore(kind, options);
  opened.push(r.store);
  return r;
}

describe.each(['sqlite', 'postgres'] as const)('job queue on %s', (kind) => {
  it('claims in order, completes, and refuses a claim when nothing is runnable', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const { store } = await fresh(kind, { now: () => new Date(clock) });
    const a = await store.jobs.enqueue('seed', { n: 1 });
    clock += 1;
    const b = await store.jobs.enqueue('seed', { n: 2 });
    await store.jobs.enqueue('later', {}, { runAfter: new Date(clock + 60_000) });

    const first = await store.jobs.claim('w1');
    expect(first).toMatchObject({
      id: a.id,
      status: 'running',
      attempts: 1,
      lockedBy: 'w1',
      payload: { n: 1 },
    });
    expect(first?.leaseUntil).toBe('2030-01-01T00:01:00.001Z');
    expect(await store.jobs.claim('w2', { types: ['other'] })).toBeUndefined();
    expect((await store.jobs.claim('w2', { types: ['seed'] }))?.id).toBe(b.id);
    expect(await store.jobs.claim('w3')).toBeUndefined();

    expect(await store.jobs.complete(a.id, 'w2', { ok: true })).toBe(false);
    expect(await store.jobs.complete(a.id, 'w1', { ok: true })).toBe(true);
    expect(await store.jobs.get(a.id)).toMatchObject({
      status: 'done',
      result: { ok: true },
      finishedAt: expect.any(String),
    });
    expect(await store.jobs.counts()).toEqual({ queued: 1, running: 1, done: 1, failed: 0 });

    clock += 61_000;
    expect((await store.jobs.claim('w3'))?.type).toBe('later');
  });

  it('retries a failed attempt after a delay and fails it for good after the last one', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const { store } = await fresh(kind, { now: () => new Date(clock) });
    const job = await store.jobs.enqueue('x', null, { maxAttempts: 2 });
    await store.jobs.claim('w1');
    expect(await store.jobs.fail(job.id, 'w2', 'not mine')).toBeUndefined();
    const retried = await store.jobs.fail(job.id, 'w1', 'boom', { retryDelayMs: 5000 });
    expect(retried).toMatchObject({ status: 'queued', error: 'boom', runAfter: '2030-01-01T00:00:05.000Z' });
    expect(await store.jobs.claim('w1')).toBeUndefined();
    clock += 5000;
    expect(await store.jobs.claim('w1')).toMatchObject({ attempts: 2 });
    expect(await store.jobs.fail(job.id, 'w1', 'boom again')).toMatchObject({
      status: 'failed',
      error: 'boom again',
    });
  });

  it('re-queues a job whose lease lapsed and fails it after its last attempt', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.000Z');
    const { store } = await fresh(kind, { now: () => new Date(clock) });
    const job = await store.jobs.enqueue('x', null, { maxAttempts: 2 });
    await store.jobs.claim('dead-worker', { leaseMs: 1000 });
    expect(await store.jobs.requeueExpired()).toEqual({ requeued: 0, failed: [] });
    clock += 500;
    expect(await store.jobs.renew(job.id, 'dead-worker', 1000)).toBe(true);
    clock += 1001;
    expect(await store.jobs.requeueExpired()).toEqual({ requeued: 1, failed: [] });
    expect(await store.jobs.complete(job.id, 'dead-worker')).toBe(false);
    expect(await store.jobs.claim('w2', { leaseMs: 1000 })).toMatchObject({
      id: job.id,
      attempts: 2,
      lockedBy: 'w2',
    });
    clock += 2000;
    const { requeued, failed } = await store.jobs.requeueExpired();
    expect(requeued).toBe(0);
    expect(failed.map((j) => [j.id, j.status])).toEqual([[job.id, 'failed']]);
  });

  it('never hands one job to two workers claiming at once', async () => {
    const { store, settings } = await fresh(kind, { poolSize: 12 });
    // A second handle on the same storage: another process's view of the queue.
    const other = (await openPortalStore(settings, { jwtSecret: JWT, poolSize: 12 }))!;
    opened.push(other);
    const total = 60;
    await Promise.all(Array.from({ length: total }, (_, i) => store.jobs.enqueue('work', { i })));
    const claimedBy = new Map<string, string[]>();
    const worker = async (name: string, queue: PortalStore['jobs']) => {
      for (;;) {
        const job = await queue.claim(name);
        if (!job) return;
        claimedBy.set(job.id, [...(claimedBy.get(job.id) ?? []), name]);
        await queue.complete(job.id, name);
      }
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => worker(`w${i}`, i % 2 ? store.jobs : other.jobs)));
    expect(claimedBy.size).toBe(total);
    expect([...claimedBy.values()].every((names) => names.length === 1)).toBe(true);
    expect(await store.jobs.counts()).toEqual({ queued: 0, running: 0, done: total, failed: 0 });
  });

  it('a worker drains jobs through registered handlers and records failures', async () => {
    const { store } = await fresh(kind);
    const seen: number[] = [];
    const worker = new JobWorker(store.jobs, { workerId: 'wk' })
      .register('ok', async (job) => {
        seen.push((job.payload as { n: number }).n);
        return { doubled: (job.payload as { n: number }).n * 2 };
      })
      .register('bad', async () => {
        throw new Error('handler failed');
      });
    const ok = await store.jobs.enqueue('ok', { n: 21 });
    const bad = await store.jobs.enqueue('bad', null, { maxAttempts: 1 });
    const unknown = await store.jobs.enqueue('nobody-handles-this', null);
    expect(await worker.drain()).toBe(2);
    expect(seen).toEqual([21]);
    expect(await store.jobs.get(ok.id)).toMatchObject({ status: 'done', result: { doubled: 42 } });
    expect(await store.jobs.get(bad.id)).toMatchObject({ status: 'failed', error: 'handler failed' });
    expect((await store.jobs.get(unknown.id))?.status).toBe('queued');
    await worker.stop();
  });
});

describe('job queue on sqlite across processes', () => {
  it('never hands one job to two processes claiming at once', async () => {
    const { store, settings } = await fresh('sqlite');
    const total = 200;
    for (let i = 0; i < total; i++) await store.jobs.enqueue('work', { i });
    const goFile = join(settings.dataDir, 'go');
    const script = join(import.meta.dirname, 'fixtures', 'claim-worker.ts');
    const procs = ['p1', 'p2', 'p3'].map((name) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', script, settings.storageSqlitePath, settings.dataDir, name, goFile],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { ready: () => out.startsWith('ready\n'), output: () => out, exit };
    });
    await waitFor(async () => procs.every((p) => p.ready()), {
      what: 'claim workers ready',
      timeoutMs: 60_000,
    });
    writeFileSync(goFile, '');
    expect(await Promise.all(procs.map((p) => p.exit))).toEqual([0, 0, 0]);
    const claimed = procs.flatMap((p) => JSON.parse(p.output().split('\n')[1]) as string[]);
    expect(claimed).toHaveLength(total);
    expect(new Set(claimed).size).toBe(total);
    expect(await store.jobs.counts()).toEqual({ queued: 0, running: 0, done: total, failed: 0 });
  }, 90_000);
});
