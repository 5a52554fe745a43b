import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, settlements } from '@/db/schema';
import { newId } from '@/lib/ids';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { readSettlementBacklog } from '@/lib/console/read-settlement-backlog';
import { collectMetrics } from '@/lib/monitoring/collect-metrics';
import { claimSettlement } from './run-settlements';

/*
 * Fair queueing across tenants (issue 44): TRON sweeps run side by side up to a cap, and when more are due than
 * the cap, a tenant with 50 pending sweeps must not starve one with a single sweep queued after them. Claims
 * (claimSettlement) pick the tenant with the fewest sweeps running first, then the longest waiting.
 */
let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

type Tenant = Awaited<ReturnType<typeof createTestTenant>>;

/** `n` TRON invoices of the tenant with a due settlement each, the oldest due first (as a backlog would be). */
async function pendingSweeps(t: Tenant, n: number, dueAt: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '25', chain: 'TRON', token: 'USDT' } });
    expect(res.status, res.text).toBe(201);
    const id = newId('settlement');
    await t.db.transaction(async (tx) => {
      await tx
        .update(invoices)
        .set({ status: 'PROCESSING_PAYOUT' })
        .where(eq(invoices.id, res.body.id as string));
      await tx.insert(settlements).values({
        id,
        invoiceId: res.body.id as string,
        tenantId: t.tenant.id,
        mode: 'test',
        chainId: rail.net.chainId,
        token: 'USDT',
        kind: 'invoice',
        amount: '25',
        feeAmount: '0.25',
        netAmount: '24.75',
        nextAttemptAt: new Date(dueAt.getTime() + i),
      });
    });
    ids.push(id);
  }
  return ids;
}

describe('TRON sweeps queue fairly across tenants', () => {
  it('a tenant with 50 pending sweeps does not starve a tenant with 1 queued after them', async () => {
    const busy = await createTestTenant();
    const small = await createTestTenant();
    const long = new Date(Date.now() - 60_000);
    const many = await pendingSweeps(busy, 50, long);
    // Queued after every one of the busy tenant's: by due time alone it would be claimed 51st.
    const [one] = await pendingSweeps(small, 1, new Date(long.getTime() + 1_000));

    // Four sweeps in flight (the cap is smaller than the backlog): each claim holds its row as a running sweep would.
    const claimed: string[] = [];
    for (let i = 0; i < 4; i++) claimed.push((await claimSettlement(busy.db, rail.net))!);
    expect(claimed).toContain(one);
    // Claimed second: the busy tenant's first sweep ran, then the tenant with none running went ahead of its other 49.
    expect(claimed.indexOf(one!)).toBe(1);
    // The rest of the slots went to the busy tenant, oldest first: nothing of theirs was skipped or reordered.
    expect(claimed.filter((id) => id !== one)).toEqual(many.slice(0, 3));

    // While the small tenant's sweep runs and the busy tenant has three, claims keep going to the oldest of the busy
    // tenant's: fairness never idles a slot.
    const next = await claimSettlement(busy.db, rail.net);
    expect(next).toBe(many[3]);
    const rows = await busy.db
      .select()
      .from(settlements)
      .where(inArray(settlements.id, [...claimed, next!]));
    expect(rows.every((r) => r.status === 'processing')).toBe(true);

    // The console's backlog (the stuck-work page): 51 open on TRON, 5 running, 2 tenants, the oldest a minute old.
    const backlog = (await readSettlementBacklog(busy.db)).find((b) => b.chainId === rail.net.chainId);
    expect(backlog).toMatchObject({ mode: 'test', chain: 'TRON', open: 51, running: 5, tenants: 2, oldestId: many[0] });
    expect(backlog!.oldestAgeSeconds).toBeGreaterThanOrEqual(0);
    // /metrics shows the same backlog and age for the network (prom-client gauges, read at scrape time).
    const text = await collectMetrics(busy.db);
    const gauge = (name: string) => Number(new RegExp(`^${name}\\{mode="test",chain="TRON"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(gauge('gateway_settlement_backlog')).toBe(51);
    expect(Math.abs(gauge('gateway_settlement_oldest_age_seconds') - backlog!.oldestAgeSeconds)).toBeLessThanOrEqual(5);
  }, 120_000);
});
