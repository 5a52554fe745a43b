import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exchangeOrders, invoices, type ExchangeOrder } from '@/db/schema';
import type { SimOrder } from '@/devtools/exchange-sim/orders';
import { newId } from '@/lib/ids';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { keyHashOf, setExchangeOverride } from './config';
import { DEFAULT_INTERVALS, PRIORITY, scheduleNextCheck } from './record-order-state';
import { resetTrackPacing, trackExchangeOrders } from './track-orders';
import { createPacer, pickBatch, trackerPace } from './track-pacing';
import { reserveWeight } from './weight-budget';

describe('tracker pacing (token bucket)', () => {
  it('hands out the ceiling evenly over the window: never above it in any window, a few polls at most at once', () => {
    const { perMs, burst } = trackerPace(150, 61_000);
    expect(burst).toBe(4);
    const p = createPacer({ perMs, burst, now: 0 });
    expect(p.take(50, 0)).toBe(4);
    expect(p.take(50, 0)).toBe(0);
    expect(p.msUntil(1, 0)).toBe(Math.ceil(1 / perMs));
    // Saturated for three minutes with a pass every 250 ms.
    const spends: { t: number; n: number }[] = [];
    for (let t = 250; t <= 180_000; t += 250) spends.push({ t, n: p.take(50, t) });
    const inWindow = (from: number, ms: number) =>
      spends.filter((s) => s.t >= from && s.t < from + ms).reduce((a, s) => a + s.n, 0) + (from === 0 ? 4 : 0);
    for (let from = 0; from <= 120_000; from += 250) {
      expect(inWindow(from, 61_000)).toBeLessThanOrEqual(150);
      expect(inWindow(from, 5_000)).toBeLessThanOrEqual(burst + Math.ceil(5_000 * perMs));
    }
    expect(Math.max(...spends.map((s) => s.n))).toBe(1);
    // And it does use the ceiling: about 143 a minute.
    expect(inWindow(60_000, 60_000)).toBeGreaterThanOrEqual(142);
  });

  it('saves up at most the burst, and gives back what the shared budget refused', () => {
    const p = createPacer({ perMs: 0.001, burst: 5, now: 0 });
    expect(p.take(3, 0)).toBe(3);
    p.refund(2);
    expect(p.take(50, 0)).toBe(4);
    expect(p.take(50, 1_000_000)).toBe(5);
  });
});

describe('tracker batch order (pickBatch)', () => {
  const moving = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10'];
  const waiting = ['w1', 'w2', 'w3'];

  it('polls moving orders first and gives every fifth poll to the longest-overdue waiting order', () => {
    expect(pickBatch(moving, waiting, 10, 0).batch).toEqual(['m1', 'm2', 'm3', 'm4', 'w1', 'm5', 'm6', 'm7', 'm8', 'w2']);
  });

  it('fills up with waiting orders when few are moving, and with moving ones when none wait', () => {
    expect(pickBatch(['m1'], waiting, 10, 0).batch).toEqual(['m1', 'w1', 'w2', 'w3']);
    expect(pickBatch(moving.slice(0, 3), [], 2, 0)).toEqual({ batch: ['m1', 'm2'], credit: 0 });
  });

  it('keeps the waiting share across passes that poll one order each', () => {
    let credit = 0;
    const picked: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = pickBatch(moving, waiting, 1, credit);
      credit = r.credit;
      picked.push(...r.batch);
    }
    expect(picked.filter((x) => x.startsWith('w'))).toHaveLength(2);
  });
});

describe('tracker schedule (scheduleNextCheck)', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  const t = now.getTime();
  const at = (ms: number) => new Date(t + ms);
  const order = (status: ExchangeOrder['status'], expiresInMs = 3600_000) => ({
    status: status!,
    time: { reg: 0, start: null, finish: null, update: null, expiration: (t + expiresInMs) / 1000, left: 0 },
  });
  const payin = { purpose: 'payin' as const, createdAt: at(-60_000) };
  const freshWithdrawal = { purpose: 'withdrawal' as const, createdAt: at(-60_000) };
  const staleWithdrawal = { purpose: 'withdrawal' as const, createdAt: at(-3600_000) };

  it('looks sooner at an order paying out than at one confirming or exchanging', () => {
    expect(scheduleNextCheck(payin, order('WITHDRAW'), now)).toEqual({
      state: 'open',
      nextCheckAt: at(DEFAULT_INTERVALS.finishingMs),
      priority: PRIORITY.moving,
    });
    expect(scheduleNextCheck(payin, order('PENDING'), now)).toEqual({ state: 'open', nextCheckAt: at(5_000), priority: PRIORITY.moving });
    expect(scheduleNextCheck(freshWithdrawal, order('EXCHANGE'), now)).toEqual({ state: 'open', nextCheckAt: at(5_000), priority: PRIORITY.moving });
    expect(DEFAULT_INTERVALS.finishingMs).toBeLessThan(DEFAULT_INTERVALS.movingMs);
  });

  it('a NEW withdrawal we funded is moving for 15 minutes, then waits with a look every 2 minutes and at its expiry', () => {
    expect(scheduleNextCheck(freshWithdrawal, order('NEW'), now)).toEqual({ state: 'open', nextCheckAt: at(10_000), priority: PRIORITY.moving });
    expect(scheduleNextCheck(staleWithdrawal, order('NEW'), now)).toEqual({ state: 'open', nextCheckAt: at(120_000), priority: PRIORITY.waiting });
    expect(scheduleNextCheck(staleWithdrawal, order('NEW', 30_000), now).nextCheckAt).toEqual(at(32_000));
  });

  it('a NEW pay-in waits 10 minutes or until just after its expiry; DONE is final', () => {
    expect(scheduleNextCheck(payin, order('NEW'), now)).toEqual({ state: 'open', nextCheckAt: at(600_000), priority: PRIORITY.waiting });
    expect(scheduleNextCheck(payin, order('NEW', 60_000), now).nextCheckAt).toEqual(at(62_000));
    expect(scheduleNextCheck(payin, order('DONE'), now)).toMatchObject({ state: 'final', nextCheckAt: null });
  });
});

// Against the simulator (no chain) on live mode only, so rows of other test files (test mode) never share the line.
describe('trackExchangeOrders', () => {
  let ex: Awaited<ReturnType<typeof startTestExchange>>;
  let t: Awaited<ReturnType<typeof createTestTenant>>;
  let keyHash: string;
  beforeAll(async () => {
    // A large budget, so a pass's size is set by `batch` in the order test; the ceiling test sets the real numbers.
    ex = await startTestExchange(undefined, { limit: { limit: 2_500 }, config: { weightLimit: 2_500, trackCeiling: 1_500 } });
    setExchangeOverride('live', ex.config);
    setExchangeOverride('test', null);
    keyHash = keyHashOf(ex.config);
    t = await createTestTenant();
  });
  afterAll(async () => {
    setExchangeOverride('live', undefined);
    await ex?.stop();
  });
  beforeEach(async () => {
    resetTrackPacing();
    setExchangeOverride('live', ex.config);
    await t.db.execute(sql`delete from exchange_weight_spends where key_hash = ${keyHash}`);
    await t.db.update(exchangeOrders).set({ state: 'final' }).where(eq(exchangeOrders.tenantId, t.tenant.id));
  });

  /** An open order at the simulator (NEW there), recorded as the tracker last saw it. */
  async function seed(purpose: 'payin' | 'withdrawal', over: Partial<ExchangeOrder> & { dueInMs: number }) {
    const o = ex.sim.createOrder(
      purpose === 'payin'
        ? { type: 'fixed', fromCcy: 'BTC', toCcy: 'USDTBSC', direction: 'to', amount: '50', toAddress: '0x1111111111111111111111111111111111111111' }
        : {
            type: 'fixed',
            fromCcy: 'USDTBSC',
            toCcy: 'BTC',
            direction: 'from',
            amount: '50',
            toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          },
      ex.config.apiKey,
    ) as SimOrder;
    const { dueInMs, ...rest } = over;
    const [row] = await t.db
      .insert(exchangeOrders)
      .values({
        id: newId('exchangeOrder'),
        tenantId: t.tenant.id,
        mode: 'live',
        purpose,
        state: 'open',
        exchangeId: o.id,
        token: o.token,
        type: 'fixed',
        fromCcy: o.from.code,
        toCcy: o.to.code,
        direction: purpose === 'payin' ? 'to' : 'from',
        requestedAmount: '50',
        toAddress: o.to.address,
        status: 'NEW',
        priority: PRIORITY.waiting,
        nextCheckAt: new Date(Date.now() + dueInMs),
        updatedAt: new Date(Date.now() - 3600_000),
        ...rest,
      })
      .returning();
    return row!;
  }

  /** A pay-in invoice for an order; `receivedAt` set: USDT arrived then. */
  async function invoiceFor(receivedAt?: Date) {
    const id = newId('invoice');
    await t.db.insert(invoices).values({
      chain: 'BSC',
      token: 'USDT',
      id,
      tenantId: t.tenant.id,
      mode: 'live',
      chainId: 31337,
      depositAddress: `0x${id.slice(-20).toLowerCase().padStart(40, '0')}`,
      addressIndex: 1_000_000_000 + Math.floor(Math.random() * 1e9),
      amountExpected: '50',
      amountReceived: receivedAt ? '50' : '0',
      confirmationsRequired: 5,
      expiresAt: new Date(Date.now() + 3600_000),
      payinCurrency: 'BTC',
      updatedAt: receivedAt ?? new Date(Date.now() - 7200_000),
    });
    return id;
  }

  const checksOf = async (rows: ExchangeOrder[]) => {
    const got = await t.db
      .select({ id: exchangeOrders.id, checks: exchangeOrders.checks })
      .from(exchangeOrders)
      .where(
        inArray(
          exchangeOrders.id,
          rows.map((r) => r.id),
        ),
      );
    const m = new Map(got.map((r) => [r.id, r.checks]));
    return rows.map((r) => m.get(r.id)!);
  };

  it('polls orders about to finish first, then moving ones, keeping a share for the longest-overdue waiting ones', async () => {
    const waiting = [];
    for (let i = 0; i < 4; i++) waiting.push(await seed('payin', { dueInMs: -600_000 + i * 1000 }));
    const moving = [];
    for (let i = 0; i < 14; i++) moving.push(await seed('withdrawal', { dueInMs: -60_000 + i * 1000, priority: PRIORITY.moving, status: 'PENDING' }));
    // Least overdue, but nearest to finishing: paying out, and a pay-in whose USDT has arrived.
    const payingOut = await seed('withdrawal', { dueInMs: -10, priority: PRIORITY.moving, status: 'WITHDRAW' });
    const delivered = await seed('payin', { dueInMs: -10, priority: PRIORITY.moving, status: 'EXCHANGE', invoiceId: await invoiceFor(new Date()) });

    const r = await trackExchangeOrders(t.db, { batch: 12 });
    expect(r.polled).toBe(12);
    expect(r.backlog).toBe(true);
    expect(await checksOf([payingOut, delivered])).toEqual([1, 1]);
    // 12 polls: 8 moving, a waiting one, 2 moving, a waiting one.
    expect(await checksOf(moving)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    expect(await checksOf(waiting)).toEqual([1, 1, 0, 0]);
    // Orders are left and the pace allows more: the next pass comes soon.
    expect(r.waitMs).toBe(200);
  });

  it('paces its polls: after the burst, about one poll per 1 / (150 per 63 s) = 0.42 s', async () => {
    setExchangeOverride('live', { ...ex.config, weightLimit: 250, trackCeiling: 150 });
    for (let i = 0; i < 10; i++) await seed('payin', { dueInMs: -60_000 });
    expect((await trackExchangeOrders(t.db)).polled).toBe(4);
    const r = await trackExchangeOrders(t.db);
    expect(r.polled).toBeLessThanOrEqual(1);
    expect(r.waitMs).toBeGreaterThanOrEqual(200);
    expect(r.waitMs).toBeLessThanOrEqual(421);
  });

  it('spends only under the ceiling, so two creates always fit within the limit', async () => {
    setExchangeOverride('live', { ...ex.config, weightLimit: 250, trackCeiling: 150 });
    for (let i = 0; i < 20; i++) await seed('payin', { dueInMs: -60_000 });
    // Earlier polls (or creates) already hold 148 of the tracker's 150.
    await t.db.execute(sql`insert into exchange_weight_spends (key_hash, weight, spent_at) values (${keyHash}, 148, clock_timestamp())`);
    expect((await trackExchangeOrders(t.db)).polled).toBe(2);
    const r = await trackExchangeOrders(t.db);
    expect(r).toMatchObject({ polled: 0, backlog: true });
    // Refused by the window (not the pace): the oldest spend leaves it in about a minute; look again in 5 s.
    expect(r.waitMs).toBe(5_000);
    const limits = { limit: 250, windowMs: 60_000, maxWaitMs: 0 };
    await reserveWeight(t.db, keyHash, 50, limits);
    await reserveWeight(t.db, keyHash, 50, limits);
    expect(ex.sim.limiter.stats().rejected).toBe(0);
  });

  it('a pay-in whose invoice got USDT is hinted once, not on every pass', async () => {
    // The customer paid USDT directly: the exchange order stays NEW.
    const invoiceId = await invoiceFor(new Date());
    const row = await seed('payin', { dueInMs: 600_000, invoiceId });
    await trackExchangeOrders(t.db);
    expect(await checksOf([row])).toEqual([1]);
    for (let i = 0; i < 3; i++) await trackExchangeOrders(t.db);
    const [after] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.id, row.id));
    expect(after).toMatchObject({ checks: 1, priority: PRIORITY.waiting, status: 'NEW' });
    // More USDT later: hinted again.
    await new Promise((r) => setTimeout(r, 20));
    await t.db.update(invoices).set({ amountReceived: '60', updatedAt: new Date() }).where(eq(invoices.id, invoiceId));
    await trackExchangeOrders(t.db);
    expect(await checksOf([row])).toEqual([2]);
  });
});
