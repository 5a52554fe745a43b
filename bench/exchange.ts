/**
 * Exchange order tracking under load: 1,000 open pay-in invoices and 200
 * exchange withdrawals tracked at once against the local exchange (real
 * 250/min weight limit, 60 s window). Orders are seeded in the simulator and
 * the database directly: creating 1,200 orders through `create` (50 weight
 * each) would take four hours of budget. During the run customers pay
 * (simulated BTC deposits for pay-ins, real test-USDT transfers on anvil for
 * withdrawals) and the simulator moves those orders to DONE (real USDT
 * payouts for pay-ins). Measured: the largest weight the exchange accepted in
 * any 60 s (must be <= 250), and the time from the exchange marking an order
 * DONE to the gateway recording it (p50, p95).
 * BENCH_EXCHANGE_SECONDS (default 150) sets the paying phase; a 30 s drain follows.
 */
import { eq, sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { exchangeOrders, withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { setExchangeOverride } from '@/lib/exchange/config';
import { trackExchangeOrdersLoop } from '@/lib/exchange/track-orders';
import { watchChainLoop } from '@/lib/payments/watch-loop';
import { startExchangeSim } from '@/devtools/exchange-sim/server';
import type { SimOrder } from '@/devtools/exchange-sim/orders';
import { newId } from '@/lib/ids';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { startAnvil } from '@/lib/testing/anvil';
import { createTestTenant } from '@/lib/testing/fixtures';
import { privateKeyToAccount } from 'viem/accounts';
import { printTable, withBenchDatabase, type Row } from './lib/harness';

const PAYINS = 1000;
const WITHDRAWALS = 200;
const RUN_MS = Number(process.env.BENCH_EXCHANGE_SECONDS ?? 150) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN;

async function bench(): Promise<Row[]> {
  const { getDb } = await import('@/lib/db');
  const db = await getDb();
  const chain = await startAnvil({ blockTime: 0.5 });
  const net = chain.network('test');
  setNetworkOverride('test', net);
  await chain.mint(privateKeyToAccount(chain.keys.other).address, '100000000');
  const sim = await startExchangeSim({
    keys: { bench_key: 'bench_secret' },
    limit: { limit: 250, windowMs: 60_000, blockMs: 5_000 },
    ttlMs: 3600_000,
    lifecycle: { confirmMs: 2_000, exchangeMs: 2_000, withdrawMs: 2_000 },
    chain: { rpcUrl: chain.rpcUrl, tokenAddress: chain.token, walletKey: chain.keys.other, reqConfirmations: 2 },
    log: () => {},
  });
  setExchangeOverride('test', {
    url: sim.url,
    apiKey: 'bench_key',
    apiSecret: 'bench_secret',
    weightLimit: 250,
    windowMs: 60_000,
    trackCeiling: 150,
  });
  const t = await createTestTenant({ name: 'Bench exchange' });
  const owner = { tenantId: t.tenant.id, mode: 'test' as const };
  const now = Date.now();

  const payins: SimOrder[] = [];
  for (let i = 0; i < PAYINS; i++) {
    const inv = await createInvoice(
      db,
      owner,
      { chain: net.chain, chainId: net.chainId, confirmations: 5, depositMnemonic: net.depositMnemonic! },
      CreateInvoiceBody.parse({ amount: '50.00' }),
    );
    const o = sim.createOrder(
      { type: 'fixed', fromCcy: 'BTC', toCcy: 'USDTBSC', direction: 'to', amount: '50', toAddress: inv.depositAddress },
      'bench_key',
    ) as SimOrder;
    payins.push(o);
    await db.insert(exchangeOrders).values(seedRow(owner, o, 'payin', { invoiceId: inv.id, nextCheckAt: new Date(now + Math.random() * 600_000) }));
  }
  const wds: SimOrder[] = [];
  for (let i = 0; i < WITHDRAWALS; i++) {
    const o = sim.createOrder(
      { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: '50', toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      'bench_key',
    ) as SimOrder;
    wds.push(o);
    const id = newId('withdrawal');
    await db.insert(withdrawals).values({
      chain: 'BSC',
      token: 'USDT',
      id,
      ...owner,
      kind: 'exchange',
      amount: '50',
      feeAmount: '0.5',
      netAmount: '50',
      destinationAddress: getAddress(o.from.address),
      chainId: net.chainId,
      status: 'COMPLETED',
    });
    await db.insert(exchangeOrders).values(
      seedRow(owner, o, 'withdrawal', {
        withdrawalId: id,
        nextCheckAt: new Date(now + Math.random() * 30_000),
        createdAt: new Date(now - 3600_000),
      }),
    );
  }
  console.log(`[bench] seeded ${PAYINS} pay-in and ${WITHDRAWALS} withdrawal orders; paying for ${RUN_MS / 1000} s`);

  // The chain watcher and the tracker run as the worker runs them (their job loops, side by side): USDT arriving at a
  // pay-in invoice is the tracker's hint.
  const stop = new AbortController();
  const loops = Promise.all([
    watchChainLoop(db, 'test', { signal: stop.signal, runForMs: 3600_000 }),
    trackExchangeOrdersLoop(db, { signal: stop.signal, runForMs: 3600_000 }),
  ]);
  const started = Date.now();
  let pi = 0;
  let wi = 0;
  for (let tick = 0; Date.now() - started < RUN_MS; tick++) {
    sim.deposit(payins[pi++ % PAYINS]!.id); // a customer pays BTC every 2 s
    if (tick % 2 === 0) {
      // A withdrawal is funded every 4 s: our USDT reaches the deposit address; the order row looks as createExchangeWithdrawal leaves it.
      const o = wds[wi++ % WITHDRAWALS]!;
      await chain.mint(o.from.address as Address, '50');
      await db
        .update(exchangeOrders)
        .set({ createdAt: new Date(), priority: 0, nextCheckAt: new Date(Date.now() + 10_000) })
        .where(eq(exchangeOrders.exchangeId, o.id));
    }
    await sleep(2000);
  }
  await sleep(30_000); // drain: orders in flight finish and get recorded
  stop.abort();
  await loops;

  const done = [...sim.orders.values()].filter((o) => o.status === 'DONE' && o.times.finish !== null);
  const rows = await db
    .select({ exchangeId: exchangeOrders.exchangeId, recordedAt: exchangeOrders.recordedAt })
    .from(exchangeOrders)
    .where(eq(exchangeOrders.tenantId, t.tenant.id));
  const recorded = new Map(rows.map((r) => [r.exchangeId, r.recordedAt]));
  const latencyOf = (os: SimOrder[]) => os.filter((o) => recorded.get(o.id)).map((o) => recorded.get(o.id)!.getTime() - o.times.finish!);
  const lat = latencyOf(done);
  // Pay-ins are hinted by their USDT arriving; withdrawals are found by polling (first look 10 s after funding).
  const latPayin = latencyOf(done.filter((o) => o.to.code === 'USDTBSC'));
  const latWd = latencyOf(done.filter((o) => o.from.code === 'USDTBSC'));
  const maxWeight = sim.limiter.maxWindowWeight('bench_key', 60_000);
  const minutes = Math.max(1, Math.round((Date.now() - started) / 60_000));
  const total = sim.limiter.log.reduce((a, x) => a + x.w, 0);
  const [{ open }] = (await db.execute(sql`select count(*)::int as open from exchange_orders where state = 'open'`)) as unknown as [{ open: number }];
  await sim.stop();
  await chain.stop();
  return [
    { name: 'orders tracked at once (open)', value: `${PAYINS + WITHDRAWALS} (${open} still open at the end)`, target: '', ok: null },
    { name: 'max weight accepted in any 60 s', value: String(maxWeight), target: '<= 250', ok: maxWeight <= 250 },
    { name: 'mean weight per minute', value: (total / minutes).toFixed(0), target: '', ok: null },
    { name: '429 answers from the exchange', value: String(sim.limiter.stats().rejected), target: '0', ok: sim.limiter.stats().rejected === 0 },
    { name: 'orders DONE / recorded DONE', value: `${done.length} / ${lat.length}`, target: 'equal', ok: done.length === lat.length },
    { name: 'DONE → recorded p50 / p95 ms', value: `${pct(lat, 50)} / ${pct(lat, 95)}`, target: '', ok: null },
    { name: '  pay-ins (n) p50 / p95 ms', value: `(${latPayin.length}) ${pct(latPayin, 50)} / ${pct(latPayin, 95)}`, target: '', ok: null },
    { name: '  withdrawals (n) p50 / p95 ms', value: `(${latWd.length}) ${pct(latWd, 50)} / ${pct(latWd, 95)}`, target: '', ok: null },
  ];
}

function seedRow(
  owner: { tenantId: string; mode: 'test' },
  o: SimOrder,
  purpose: 'payin' | 'withdrawal',
  extra: { invoiceId?: string; withdrawalId?: string; nextCheckAt: Date; createdAt?: Date },
) {
  return {
    id: newId('exchangeOrder'),
    ...owner,
    purpose,
    state: 'open' as const,
    exchangeId: o.id,
    token: o.token,
    type: o.type,
    fromCcy: o.from.code,
    toCcy: o.to.code,
    direction: purpose === 'payin' ? ('to' as const) : ('from' as const),
    requestedAmount: '50',
    toAddress: o.to.address,
    fromAmount: o.from.amount,
    toAmount: o.to.amount,
    depositAddress: o.from.address,
    status: 'NEW' as const,
    expiresAt: new Date(o.times.expiration),
    priority: 1,
    ...extra,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await withBenchDatabase(async () => printTable('Exchange tracking (1,000 pay-ins + 200 withdrawals)', await bench()));
  process.exit(0);
}
