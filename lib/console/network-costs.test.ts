import { eq, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { gasSpend } from '@/db/schema';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { getNetworkCosts } from './get-network-costs';

/*
 * Issue 30 §4: the console shows, per network, the gas the operator spent against the fees it earned, over 24 h
 * and 30 days. Each mined transaction of ours (a sweep's top-up and transfers, a withdrawal) records its gas.
 */
let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test', { networkFee: '0.50', minWithdrawal: '1.00', gasCoinUsd: '600' });
  setNetworkOverride('test', net);
});
const { settledInvoice, send } = settledInvoices(() => ({ chain, net }));

describe('gas spent against fees earned', () => {
  it('records the gas of every sweep step and withdrawal from its receipt, and sets it against the fees per window', async () => {
    const t = await settledInvoice('20.00', '20.00');
    const wd = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: freshAddress() } });
    expect(wd.status, wd.text).toBe(201);
    expect(wd.body.feeAmount).toBe('0.55');
    await send();
    const rows = await t.db.select().from(gasSpend).where(eq(gasSpend.chainId, chain.chainId));
    expect(rows.map((r) => r.kind).sort()).toEqual(['sweep_custody', 'sweep_fee', 'sweep_gas_topup', 'withdrawal']);
    for (const r of rows) {
      const receipt = await chain.client.getTransactionReceipt({ hash: r.txHash as Hex });
      expect(r.costWei, r.kind).toBe((receipt.gasUsed * receipt.effectiveGasPrice).toString());
      expect(r.mode).toBe('test');
    }
    expect(rows.find((r) => r.kind === 'withdrawal')!.referenceId).toBe(wd.body.id);
    // Reading the receipts again counts nothing twice.
    await send();
    expect(await t.db.select().from(gasSpend).where(eq(gasSpend.chainId, chain.chainId))).toHaveLength(4);

    const wei = rows.reduce((s, r) => s + BigInt(r.costWei), 0n);
    const [mine] = (await getNetworkCosts(t.db, ['test'])).filter((r) => r.chainId === chain.chainId);
    // Invoice fee 0.20, withdrawal fee 0.05 + 0.50 network fee.
    expect(mine!.windows['24h']).toMatchObject({ transactions: 4, invoiceFees: '0.20', withdrawalFees: '0.55', feesEarned: '0.75' });
    expect(new Decimal(mine!.windows['24h'].gas).eq(new Decimal(wei.toString()).div('1e18'))).toBe(true);
    expect(mine!.windows['24h'].gasUsd).toBe(new Decimal(wei.toString()).div('1e18').times(600).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2));
    expect(mine!.windows['30d']).toEqual(mine!.windows['24h']);

    // Two days later the day's window is empty, the month's still holds it all.
    await t.db.execute(sql`update gas_spend set created_at = now() - interval '2 days' where chain_id = ${chain.chainId}`);
    await t.db.execute(sql`update settlements set completed_at = now() - interval '2 days' where chain_id = ${chain.chainId}`);
    await t.db.execute(sql`update withdrawals set created_at = now() - interval '2 days' where chain_id = ${chain.chainId}`);
    const [later] = (await getNetworkCosts(t.db, ['test'])).filter((r) => r.chainId === chain.chainId);
    expect(later!.windows['24h']).toMatchObject({ transactions: 0, gas: '0', feesEarned: '0.00' });
    expect(later!.windows['30d']).toMatchObject({ transactions: 4, feesEarned: '0.75' });
  });
});
