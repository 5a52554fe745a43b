import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resourceCatalog } from '@trigger.dev/core/v3';
import { StandardResourceCatalog } from '@trigger.dev/core/v3/workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { MODES } from '@/lib/mode';
import { withTestChain } from '@/lib/testing/test-chain';
import { chainWatchJob } from './invoice-jobs';
import { SCHEDULED_JOBS } from './registry';
import { runScheduledJob } from './run-job';
import { runSettleInvoiceJob, SettleInvoicePayload } from './settle-invoice-job';

/**
 * What Trigger.dev would index and run: every jobs/*.ts module registers its
 * tasks in the resource catalog (as the indexer sees them), and each task's
 * run function, executed here, runs the local worker's registry jobs by name
 * (runScheduledJob and the settlement job are mocked to record the calls). The
 * fan-out's payloads go through the settle-invoice task's own parser and run.
 */
vi.mock('@/lib/jobs/run-job', () => ({ runScheduledJob: vi.fn(async () => undefined) }));
vi.mock('@/lib/jobs/settle-invoice-job', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./settle-invoice-job')>()),
  runSettleInvoiceJob: vi.fn(async () => ({ completed: 1, failed: 0 })),
}));
// Two due settlements per ready network, whatever the test database holds (dueSettlements' SQL is the claim's own).
vi.mock('@/lib/settlements/due-settlements', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/settlements/due-settlements')>()),
  dueSettlements: vi.fn(async (_db: unknown, net: { mode: string }) => [
    { id: `stl_${net.mode}_a`, attempts: 0 },
    { id: `stl_${net.mode}_b`, attempts: 3 },
  ]),
}));

const ROOT = path.resolve(__dirname, '../..');
const JOB_FILES = readdirSync(path.join(ROOT, 'jobs')).filter((f) => f.endsWith('.ts'));
const DEFAULT_MAX_DURATION_S = 300; // trigger.config.ts

interface Manifest {
  id: string;
  filePath: string;
  maxDuration?: number;
  schedule?: { cron: string };
}
let manifests: Manifest[] = [];
const exported = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  resourceCatalog.setGlobalResourceCatalog(new StandardResourceCatalog());
  for (const file of JOB_FILES) {
    resourceCatalog.setCurrentFileContext(`jobs/${file}`, file);
    const mod = (await import(pathToFileURL(path.join(ROOT, 'jobs', file)).href)) as Record<string, unknown>;
    resourceCatalog.clearCurrentFileContext();
    for (const v of Object.values(mod))
      if (v && typeof v === 'object' && 'id' in v) exported.set((v as { id: string }).id, v as Record<string, unknown>);
  }
  manifests = resourceCatalog.listTaskManifests() as unknown as Manifest[];
});

afterEach(() => vi.clearAllMocks());

// The test mode's network is ready (a local chain): the fan-out queues its settlements, the chain watch really loops.
withTestChain(() => {});

/** Runs a task as Trigger.dev would: its payload through the task's parser (schemaTask), then its run function. */
async function runTask(id: string, payload?: unknown): Promise<unknown> {
  const task = resourceCatalog.getTask(id);
  if (!task) throw new Error(`task ${id} is not registered`);
  const parsed = task.fns.parsePayload ? await task.fns.parsePayload(payload) : payload;
  return task.fns.run(parsed, { ctx: {} as never, signal: new AbortController().signal } as never);
}

/** A 5-field cron: minute hour day-of-month month day-of-week, each `*`, numbers, ranges, lists and steps within range. */
function validCron(cron: string): boolean {
  const ranges = [
    [0, 59],
    [0, 23],
    [1, 31],
    [1, 12],
    [0, 7],
  ] as const;
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  return fields.every((f, i) =>
    f.split(',').every((part) => {
      const m = part.match(/^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/);
      if (!m) return false;
      const [lo, hi] = ranges[i]!;
      const nums = [m[2], m[3]].filter((x) => x !== undefined).map(Number);
      if (m[4] !== undefined && Number(m[4]) < 1) return false;
      return nums.every((n) => n >= lo && n <= hi) && (nums.length < 2 || nums[0]! <= nums[1]!);
    }),
  );
}

/** Each scheduled task and the registry jobs its run must run (Trigger.dev runs every mode's chain watch in one task). */
const SCHEDULED_TASKS: Record<string, string[]> = {
  'purge-expired-request-state': ['purge-expired-request-state'],
  'webhook-delivery': ['webhook-delivery'],
  'chain-watch': MODES.map(chainWatchJob),
  'expire-invoices': ['expire-invoices'],
  'deposit-address-pool': ['deposit-address-pool'],
  'settlement-fanout': ['settlement-fanout'],
  'sweep-janitor': ['sweep-janitor'],
  'process-withdrawals': ['process-withdrawals'],
  'track-exchange-orders': ['track-exchange-orders'],
  'auto-refunds': ['auto-refunds'],
  'webhook-queue-rotate': ['webhook-queue-rotate'],
  solvency: ['solvency'],
  'subscription-billing': ['subscription-billing'],
  'subscription-collection': ['subscription-collection'],
  'send-emails': ['send-emails'],
};

describe('Trigger.dev tasks (jobs/)', () => {
  it('trigger.config.ts points at jobs/', () => {
    expect(readFileSync(path.join(ROOT, 'trigger.config.ts'), 'utf8')).toMatch(/dirs:\s*\[\s*'\.\/jobs'\s*\]/);
  });

  it('every module registers its tasks, with unique ids, and the schedules are the expected ones', () => {
    const ids = manifests.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(resourceCatalog.listTaskIdCollisions()).toEqual([]);
    // every exported task is registered, and every registered one exported (the indexer only sees exports)
    expect([...exported.keys()].sort()).toEqual([...ids].sort());
    for (const file of JOB_FILES)
      expect(
        manifests.some((m) => m.filePath === `jobs/${file}`),
        `jobs/${file} registers no task`,
      ).toBe(true);
    // scheduled: exactly the table above, each every minute; settle-invoice is triggered by the fan-out only
    const scheduled = manifests.filter((m) => m.schedule);
    expect(scheduled.map((m) => m.id).sort()).toEqual(Object.keys(SCHEDULED_TASKS).sort());
    for (const m of scheduled) {
      expect(validCron(m.schedule!.cron), `${m.id}: ${m.schedule!.cron}`).toBe(true);
      expect(m.schedule!.cron, m.id).toBe('* * * * *');
    }
    expect(ids.filter((id) => !SCHEDULED_TASKS[id])).toEqual(['settle-invoice']);
  });

  it.each(Object.entries(SCHEDULED_TASKS))('%s runs the registry jobs %j, within its maxDuration', async (id, jobs) => {
    const settleTrigger = vi.spyOn(exported.get('settle-invoice') as { trigger: () => Promise<unknown> }, 'trigger').mockResolvedValue({});
    await runTask(id);
    const calls = vi.mocked(runScheduledJob).mock.calls;
    expect(calls.map(([name]) => name).sort()).toEqual([...jobs].sort());
    const names = new Set(SCHEDULED_JOBS.map((j) => j.name));
    const maxMs = (manifests.find((m) => m.id === id)!.maxDuration ?? DEFAULT_MAX_DURATION_S) * 1000;
    for (const [name, opts] of calls) {
      expect(names.has(name), `${name} is not a registry job`).toBe(true);
      // a loop must end well before Trigger.dev kills the run
      if (opts?.runForMs !== undefined) expect(opts.runForMs, name).toBeLessThanOrEqual(maxMs - 30_000);
    }
    if (id !== 'settlement-fanout') expect(settleTrigger).not.toHaveBeenCalled();
  });

  it("every job of the local worker's registry is run by a task (settle-invoices by settle-invoice)", () => {
    const run = new Set([...Object.values(SCHEDULED_TASKS).flat(), 'settle-invoices']);
    expect(SCHEDULED_JOBS.map((j) => j.name).filter((n) => !run.has(n))).toEqual([]);
  });

  it('the fan-out queues every due settlement once per attempt, and settle-invoice runs what it queued', async () => {
    const settleTask = exported.get('settle-invoice') as { trigger: (p: unknown, o: unknown) => Promise<unknown>; schema: unknown };
    expect(settleTask.schema).toBe(SettleInvoicePayload);
    const trigger = vi.spyOn(settleTask, 'trigger').mockResolvedValue({});
    await runTask('settlement-fanout');
    expect(trigger.mock.calls.length).toBeGreaterThan(0);
    const keys = trigger.mock.calls.map(([, o]) => (o as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toContain(`${(trigger.mock.calls[0]![0] as { settlementId: string }).settlementId}:0`);
    expect(keys.some((k) => k.endsWith('_b:3'))).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    const db = await getDb();
    for (const [payload] of trigger.mock.calls) {
      await expect(runTask('settle-invoice', JSON.parse(JSON.stringify(payload)))).resolves.toEqual({ completed: 1, failed: 0 });
      expect(vi.mocked(runSettleInvoiceJob)).toHaveBeenLastCalledWith(db, payload);
    }
    // and a payload the fan-out could not have built is refused before the run
    await expect(runTask('settle-invoice', { settlementId: 'stl_x', mode: 'prod' })).rejects.toThrow();
    await expect(runTask('settle-invoice', { id: 'stl_x', mode: 'test' })).rejects.toThrow();
  });
});

describe('runScheduledJob', () => {
  it('runs the named registry entry with the options, against the database; an unknown name throws', async () => {
    const real = await vi.importActual<typeof import('./run-job')>('./run-job');
    const job = SCHEDULED_JOBS.find((j) => j.name === 'purge-expired-request-state')!;
    const run = vi.spyOn(job, 'run');
    await real.runScheduledJob('purge-expired-request-state', { runForMs: 5 });
    expect(run).toHaveBeenCalledWith(await getDb(), expect.any(AbortSignal), { runForMs: 5 });
    run.mockRestore();
    await expect(real.runScheduledJob('no-such-job')).rejects.toThrow(/no-such-job/);
  });

  it('passes the loop length on: the looping jobs end after runForMs, not their 25-55 s default', async () => {
    const real = await vi.importActual<typeof import('./run-job')>('./run-job');
    for (const name of ['webhook-delivery', 'track-exchange-orders', ...MODES.map(chainWatchJob)]) {
      const started = Date.now();
      await real.runScheduledJob(name, { runForMs: 50 });
      expect(Date.now() - started, name).toBeLessThan(10_000);
    }
  }, 30_000);
});
