import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resourceCatalog } from '@trigger.dev/core/v3';
import { StandardResourceCatalog } from '@trigger.dev/core/v3/workers';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULED_JOBS } from './registry';

/**
 * Offline check of what Trigger.dev would index: every jobs/*.ts module imports,
 * its tasks register in the resource catalog (as the Trigger.dev indexer sees
 * them), ids are unique, crons are valid 5-field expressions, the local
 * worker's jobs all have a Trigger.dev counterpart, and the payloads the
 * fan-out tasks send match what the per-item tasks read.
 */
const ROOT = path.resolve(__dirname, '../..');
const JOB_FILES = readdirSync(path.join(ROOT, 'jobs')).filter((f) => f.endsWith('.ts'));

interface Manifest {
  id: string;
  filePath: string;
  schedule?: { cron: string };
}
let manifests: Manifest[] = [];
const exported = new Map<string, { id: string }>();

beforeAll(async () => {
  resourceCatalog.setGlobalResourceCatalog(new StandardResourceCatalog());
  for (const file of JOB_FILES) {
    resourceCatalog.setCurrentFileContext(`jobs/${file}`, file);
    const mod = (await import(pathToFileURL(path.join(ROOT, 'jobs', file)).href)) as Record<string, unknown>;
    resourceCatalog.clearCurrentFileContext();
    for (const v of Object.values(mod)) if (v && typeof v === 'object' && 'id' in v) exported.set((v as { id: string }).id, v as { id: string });
  }
  manifests = resourceCatalog.listTaskManifests() as unknown as Manifest[];
});

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

describe('Trigger.dev tasks (jobs/)', () => {
  it('trigger.config.ts points at jobs/', () => {
    expect(readFileSync(path.join(ROOT, 'trigger.config.ts'), 'utf8')).toMatch(/dirs:\s*\[\s*'\.\/jobs'\s*\]/);
  });

  it('every module registers its tasks, with unique ids', () => {
    expect(manifests.length).toBeGreaterThan(0);
    const ids = manifests.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(resourceCatalog.listTaskIdCollisions()).toEqual([]);
    // every exported task is registered, and every registered one exported (the indexer only sees exports)
    expect([...exported.keys()].sort()).toEqual([...ids].sort());
    for (const file of JOB_FILES) expect(manifests.some((m) => m.filePath === `jobs/${file}`), `jobs/${file} registers no task`).toBe(true);
  });

  it('schedules have valid crons', () => {
    const scheduled = manifests.filter((m) => m.schedule);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const m of scheduled) expect(validCron(m.schedule!.cron), `${m.id}: ${m.schedule!.cron}`).toBe(true);
  });

  it("every job of the local worker's registry has a Trigger.dev task (or is covered by one)", () => {
    const ids = new Set(manifests.map((m) => m.id));
    // The local worker splits some work into jobs that one Trigger.dev task covers.
    const coveredBy: Record<string, string> = { 'settle-invoices': 'settle-invoice' };
    const missing = SCHEDULED_JOBS.map((j) => j.name)
      .filter((n) => !ids.has(n) && !ids.has(coveredBy[n] ?? '') && !n.startsWith('chain-watch'));
    expect(missing).toEqual([]);
  });

  it("settle-invoice's payload, as the fan-out sends it, validates against what the task reads", () => {
    const SettlePayload = z.strictObject({ settlementId: z.string().regex(/^stl_|^[a-z]+_/), mode: z.enum(['live', 'test']) });
    const source = readFileSync(path.join(ROOT, 'jobs/invoices.ts'), 'utf8');
    // The fan-out triggers settle-invoice with exactly these fields.
    expect(source).toMatch(/settleInvoiceTask\.(batchTrigger|trigger)\(/);
    expect(source).toMatch(/payload: \{ settlementId: [\w.]+, mode \}|\{ settlementId: [\w.]+, mode \}/);
    expect(SettlePayload.safeParse({ settlementId: 'stl_01J00000000000000000000000', mode: 'test' }).success).toBe(true);
    expect(SettlePayload.safeParse({ settlementId: 'stl_01J00000000000000000000000', mode: 'prod' }).success).toBe(false);
  });
});
