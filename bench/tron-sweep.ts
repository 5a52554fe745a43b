/**
 * TRON sweep cost benchmark, on the TRON stand-in (devtools/tron-node, mainnet's fee parameters: 100 sun per
 * energy, 1,000 sun per byte, 1 TRX + 0.1 TRX to create an account, 600 free bytes a day): invoices paid in
 * USDT, found by the watcher, fanned out and settled by the real jobs, first with energy delegated from the
 * energy wallet's stake, then by burning TRX (an energy wallet without stake, `allowTrxBurn`). Prints the TRX
 * spent per swept payment (every sun the sweep's transactions burned, from gas_spend: activation, bandwidth,
 * energy) beside SHKeeper's users' ~40 TRX per payment (SHKeeper issue 80), and the stake a delegated sweep
 * holds while it runs.
 *   npx tsx bench/tron-sweep.ts [payments per mode=5]
 */
import { eq, inArray } from 'drizzle-orm';
import { utils } from 'tronweb';
import type { Hex } from 'viem';
import { printTable, withBenchDatabase, type Row } from './lib/harness';

const PAYMENTS = Number(process.argv[2] ?? 5);
const SHKEEPER_TRX = 40;

await withBenchDatabase(async () => {
  const { getDb } = await import('@/lib/db');
  const { gasSpend, settlements, invoices } = await import('@/db/schema');
  const { startTronRail } = await import('@/lib/testing/tron-rail');
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const { call } = await import('@/lib/testing/app');
  const { watchTron } = await import('@/lib/payments/watch-tron');
  const { createSettlements } = await import('@/lib/settlements/create-settlements');
  const { runSettlements } = await import('@/lib/settlements/run-settlements');
  const { readTronAccount } = await import('@/lib/chain/tron/resources');
  const db = await getDb();
  const rail = await startTronRail();
  try {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const poor = utils.accounts.generateAccount();
    await rail.node.sendTrx(poor.address.base58, 200_000_000);
    const modes = [
      { name: 'delegated energy', net: rail.net },
      { name: 'burning TRX', net: { ...rail.net, gasWalletKey: `0x${poor.privateKey}` as Hex, allowTrxBurn: true } },
    ];
    const rows: Row[] = [];
    const watch = () => watchTron(db, rail.net, { baseBackoffMs: 1, maxRetries: 1 });
    await watch();
    for (const mode of modes) {
      const ids: string[] = [];
      const depositTrx: bigint[] = [];
      for (let i = 0; i < PAYMENTS; i++) {
        const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '100.00', chain: 'TRON', token: 'USDT' } });
        if (res.status !== 201) throw new Error(`invoice: ${res.text}`);
        await rail.node.mintUsdt(res.body.depositAddress, 100_000_000n);
        await watch();
        await rail.node.mine(19);
        await watch();
        const created = await createSettlements(db, rail.net);
        for (const id of created) {
          const r = await runSettlements(db, mode.net, { only: id, hooks: { onWait: () => rail.node.mine(1) } });
          if (r.completed !== 1) {
            const [s] = await db.select().from(settlements).where(eq(settlements.id, id));
            throw new Error(`sweep failed: ${s?.lastError}`);
          }
          ids.push(id);
          const [inv] = await db
            .select()
            .from(invoices)
            .where(eq(invoices.id, s0(await db.select().from(settlements).where(eq(settlements.id, id))).invoiceId));
          depositTrx.push((await readTronAccount(rail.client, inv!.depositAddress)).balanceSun);
        }
      }
      const spends = await db.select().from(gasSpend).where(inArray(gasSpend.referenceId, ids));
      const sun = (kinds?: string[]) => spends.filter((s) => !kinds || kinds.includes(s.kind)).reduce((a, s) => a + BigInt(s.costWei), 0n);
      const per = (v: bigint) => Number(v) / 1e6 / ids.length;
      const total = per(sun());
      rows.push({
        name: `TRX spent per swept payment, ${mode.name}`,
        value: `${total.toFixed(3)} TRX`,
        target: `< ${SHKEEPER_TRX} TRX (SHKeeper)`,
        ok: total < SHKEEPER_TRX,
      });
      rows.push({
        name: `  of it: activation (energy wallet)`,
        value: `${per(sun(['sweep_activate', 'sweep_gas_topup'])).toFixed(3)} TRX`,
        target: '',
        ok: null,
      });
      rows.push({
        name: `  of it: energy wallet's bandwidth`,
        value: `${per(sun(['sweep_delegate', 'sweep_undelegate', 'sweep_stake'])).toFixed(3)} TRX`,
        target: '',
        ok: null,
      });
      rows.push({
        name: `  of it: deposit's transfer (energy + bandwidth)`,
        value: `${per(sun(['sweep_custody'])).toFixed(3)} TRX`,
        target: '',
        ok: null,
      });
      const left = depositTrx.reduce((a, b) => a + b, 0n);
      rows.push({ name: `  TRX left on the deposit address`, value: `${per(left).toFixed(3)} TRX`, target: '', ok: null });
      if (mode.name === 'delegated energy') {
        const plans = await db.select({ plan: settlements.gasPlan }).from(settlements).where(inArray(settlements.id, ids));
        const staked = plans.map((p) => (p.plan?.kind === 'tron' ? Number(p.plan.delegateSun) / 1e6 : 0));
        rows.push({
          name: '  stake delegated during a sweep',
          value: `${Math.min(...staked).toLocaleString('en-US')}–${Math.max(...staked).toLocaleString('en-US')} TRX`,
          target: 'first: hot held no USDT',
          ok: null,
        });
      }
    }
    printTable(`TRON sweep cost, ${PAYMENTS} payments of 100 USDT per mode, each to a new deposit address (stand-in node)`, rows);
  } finally {
    await rail.stop();
  }
});

function s0<T>(rows: T[]): T {
  if (!rows[0]) throw new Error('missing row');
  return rows[0];
}
