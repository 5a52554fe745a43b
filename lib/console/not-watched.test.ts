import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import { closeDb, getDb, type Db } from '@/lib/db';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { listStuckWork } from './list-stuck-work';
import { searchConsole } from './search';

let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
});

// Issue 45: an invoice of an earlier run's local chain is marked "not watched" in the console as on the dashboard
// and the checkout (lib/invoices/chain-gone.ts decides it for all three).
describe('console: invoices whose local chain is gone', () => {
  it('search and stuck work mark them not watched; this run’s invoices are not', async () => {
    const t = await createTestTenant();
    const make = async () => {
      const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const live = await make();
    const old = await make();
    // As after a restart of `npm run dev`: the chain id is no longer the network's; left stuck in payout.
    const stale = new Date(Date.now() - 3_600_000);
    for (const id of [live, old])
      await db
        .update(invoices)
        .set({ status: 'PROCESSING_PAYOUT', updatedAt: stale, ...(id === old ? { chainId: sql`${invoices.chainId} + 1` } : {}) })
        .where(eq(invoices.id, id));

    const [oldHit] = await searchConsole(db, old);
    expect(oldHit).toMatchObject({ kind: 'invoice', id: old, notWatched: true });
    const [liveHit] = await searchConsole(db, live);
    expect(liveHit).toMatchObject({ kind: 'invoice', id: live, notWatched: false });

    const stuck = await listStuckWork(db);
    expect(stuck.invoices.find((i) => i.id === old)).toMatchObject({ notWatched: true });
    expect(stuck.invoices.find((i) => i.id === live)).toMatchObject({ notWatched: false });
  });
});
