import { sql } from 'drizzle-orm';
import { createWalletClient, erc20Abi, formatUnits, getAddress, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { setNetworkOverride } from '@/lib/chain/network';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { rowsOf } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { startAnvil } from './anvil';
import { call } from './app';
import { createTestKey, createTestTenant } from './fixtures';
import { freshAddress } from './settled-invoice';
import { creditAsset } from './usdc-rails';

export interface GasDrainOptions {
  withdrawals: number;
  dustedAddresses: number;
  /** `current`: Ethereum's default costs; `before`: the terms before issue 30 (0.01 minimum, no flat fee, BSC's 1.00 sweep minimum). */
  terms: 'current' | 'before';
  /** Typical Ethereum gas price (gwei) the gas used is valued at (anvil's own price falls towards zero on an idle chain). */
  gasPriceGwei?: number;
  victimWithdrawals?: number;
}

/**
 * Issue 30 §4, the gas-drain abuse: on Ethereum a tenant makes minimum withdrawals and sends dust (1 USDC) to
 * its old deposit addresses, while another tenant withdraws too. Measures the gas the operator paid for the
 * attacker (gas_spend's gas used, at a typical gas price and the network's reference price of ETH) against what the attacker was charged
 * (its withdrawals' fees and the invoice fees on its dust), and whether the victim's withdrawals completed.
 */
export async function runGasDrain(o: GasDrainOptions) {
  const chain = await startAnvil({ chain: 'ETHEREUM', tokens: [{ asset: 'USDC', decimals: 6 }] });
  const gwei = o.gasPriceGwei ?? 10;
  const d = NETWORK_COST_DEFAULTS.ETHEREUM;
  const costs = o.terms === 'current' ? d : { minWithdrawal: '0.01', networkFee: '0.00', sweepMinimum: '1.00', gasCoinUsd: d.gasCoinUsd };
  const net = chain.network('test', { ...costs, confirmations: 2 }) as LaneNetwork;
  setNetworkOverride('test', net, 'ETHEREUM');
  try {
    // Keys with room for the whole run (an attacker spreads its calls over keys and minutes; the rate limit is not what is measured).
    const tenant = async (name: string) => {
      const t = await createTestTenant({ name, invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
      const key = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 10_000 });
      return { ...t, test: key.key };
    };
    const attacker = await tenant('gas drainer');
    const victim = await tenant('gas victim');
    const { db } = attacker;
    const jobs = () => runInvoiceJobs(db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    const perWithdrawal = new Decimal(costs.minWithdrawal).times('1.01').plus(costs.networkFee);
    await creditAsset(db, attacker.tenant.id, 'USDC', perWithdrawal.times(o.withdrawals).plus(10).toFixed());
    await creditAsset(db, victim.tenant.id, 'USDC', '1000');
    await chain.mint(chain.addresses.hot, '1000000', chain.tokenOf('USDC'));
    await jobs();

    // Old deposit addresses: the attacker's expired invoices, then 1 USDC of dust to each from its own wallet.
    const old: string[] = [];
    for (let i = 0; i < o.dustedAddresses; i++) {
      const inv = await call('POST', '/v1/invoices', {
        key: attacker.test,
        body: { amount: '10.00', chain: 'ETHEREUM', token: 'USDC', expiresInMinutes: 5 },
      });
      if (inv.status !== 201) throw new Error(`invoice: ${inv.text}`);
      old.push(inv.body.depositAddress as string);
    }
    await chain.client.request({ method: 'evm_increaseTime' as never, params: [400] as never });
    await chain.mine(1);
    await jobs();
    const duster = privateKeyToAccount(chain.keys.other);
    await chain.mint(duster.address, String(o.dustedAddresses), chain.tokenOf('USDC'));
    const wallet = createWalletClient({ chain: chain.client.chain, account: duster, transport: http(chain.rpcUrl) });
    for (const to of old) {
      const hash = await wallet.writeContract({
        address: chain.tokenOf('USDC'),
        abi: erc20Abi,
        functionName: 'transfer',
        args: [getAddress(to), parseUnits('1', 6)],
      });
      await chain.client.waitForTransactionReceipt({ hash });
    }
    // Until every dust payment is settled (swept and credited only if worth its sweep: plan-sweep.ts).
    const settledDust = async () =>
      Number(
        rowsOf<{ n: string }>(
          await db.execute(sql`select count(*)::text as n from settlements where tenant_id = ${attacker.tenant.id} and status = 'completed'`),
        )[0]!.n,
      );
    for (let i = 0; i < 60 && (await settledDust()) < o.dustedAddresses; i++) {
      await chain.mine(3);
      await jobs();
    }

    // The victim's withdrawals alone, then the minimum withdrawals with the victim's among them.
    const body = (amount: string) => ({ amount, destinationAddress: freshAddress(), chain: 'ETHEREUM', token: 'USDC' });
    let victimRefused = 0;
    const victimRun = async (latencies: number[]) => {
      for (let i = 0; i < (o.victimWithdrawals ?? 10); i++) {
        const t0 = performance.now();
        const r = await call('POST', '/v1/withdrawals', { key: victim.test, body: body('20.00') });
        latencies.push(performance.now() - t0);
        if (r.status !== 201) victimRefused++;
      }
    };
    const victimAlone: number[] = [];
    const victimLatencies: number[] = [];
    await victimRun(victimAlone);
    const underAttack = victimRun(victimLatencies);
    let created = 0;
    for (let i = 0; i < o.withdrawals; i++)
      if ((await call('POST', '/v1/withdrawals', { key: attacker.test, body: body(costs.minWithdrawal) })).status === 201) created++;
    await underAttack;

    const t0 = performance.now();
    const open = async () =>
      Number(
        rowsOf<{ n: string }>(
          await db.execute(
            sql`select count(*)::text as n from withdrawals where chain_id = ${chain.chainId} and status in ('PENDING', 'PROCESSING')`,
          ),
        )[0]!.n,
      );
    while ((await open()) > 0 && performance.now() - t0 < 15 * 60_000) {
      await processWithdrawals(db, net);
      await chain.mine(2);
    }
    const laneSeconds = Math.round((performance.now() - t0) / 100) / 10;

    const [f] = rowsOf<{ gas: string; txs: number; charged: string; victim_done: number; victim_all: number; sweeps: number }>(
      await db.execute(sql`
        select coalesce((select sum(g.gas_used) from gas_spend g where g.chain_id = ${chain.chainId}
                          and (g.reference_id in (select id from withdrawals where tenant_id = ${attacker.tenant.id})
                            or g.reference_id in (select id from settlements where tenant_id = ${attacker.tenant.id}))), 0)::text as gas,
               (select count(*) from gas_spend g where g.chain_id = ${chain.chainId}
                  and (g.reference_id in (select id from withdrawals where tenant_id = ${attacker.tenant.id})
                    or g.reference_id in (select id from settlements where tenant_id = ${attacker.tenant.id})))::int as txs,
               (coalesce((select sum(fee_amount) from withdrawals where tenant_id = ${attacker.tenant.id} and status <> 'FAILED'), 0)
                + coalesce((select sum(fee_amount) from settlements where tenant_id = ${attacker.tenant.id} and status = 'completed' and not uncollected), 0))::text as charged,
               (select count(*) from withdrawals where tenant_id = ${victim.tenant.id} and status = 'COMPLETED')::int as victim_done,
               (select count(*) from withdrawals where tenant_id = ${victim.tenant.id})::int as victim_all,
               (select count(*) from settlements where tenant_id = ${attacker.tenant.id} and status = 'completed' and not sweep_deferred)::int as sweeps`),
    );
    // The gas the attacker's transactions used, at a typical Ethereum price.
    const gasEth = formatUnits(BigInt(f!.gas) * BigInt(Math.round(gwei * 1e9)), 18);
    const gasUsd = new Decimal(gasEth).times(costs.gasCoinUsd);
    return {
      terms: o.terms,
      costs,
      gasPriceGwei: gwei,
      gasUsed: f!.gas,
      attackerWithdrawals: created,
      dusted: old.length,
      dustSwept: f!.sweeps,
      attackerTransactions: f!.txs,
      gasEth,
      gasUsd: gasUsd.toFixed(2),
      charged: new Decimal(f!.charged).toFixed(2),
      victimCompleted: f!.victim_done,
      victimWithdrawals: f!.victim_all,
      victimRefused,
      victimAlone,
      victimLatencies,
      laneSeconds,
      gasCovered: gasUsd.lte(f!.charged),
    };
  } finally {
    setNetworkOverride('test', undefined, 'ETHEREUM');
    await chain.stop();
  }
}
