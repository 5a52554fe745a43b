import { getAddress, parseUnits, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { CHAIN_SPECS, EVM_CHAINS as CHAINS, type Asset, type ChainKey } from '@/lib/config/rails';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { balanceOf, createInvoice, invoiceDetail, ledgerSums, sendToken } from '@/lib/testing/two-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 30 §2, the 50,000 case: through a public payment page anyone can pay 1 + 50,000 and ask the 50,000 back.
 * It used to cost the merchant the invoice fee on the 50,000 and a withdrawal fee on top (about 1,000 at 1 % + 1 %).
 * Now, on every rail, each network with its default costs (lib/config/network-costs.ts): the merchant's balance
 * ends exactly where a payment of the price alone leaves it (0.99: the price less its 1 % fee), the excess having
 * cost it nothing; the payer gets the 50,000 less the network's flat fee; on chain, the fee wallet got the fee on
 * the price only and the hot wallet kept the merchant's 0.99 and the network fee.
 */
const chains = new Map<ChainKey, { chain: AnvilChain; net: Network }>();
for (const key of CHAINS) {
  const tokens = (Object.entries(CHAIN_SPECS[key].tokens) as [Asset, { decimals: number }][]).map(([asset, t]) => ({ asset, decimals: t.decimals }));
  withTestChain(
    (c) => {
      const { minWithdrawal, networkFee, sweepMinimum } = NETWORK_COST_DEFAULTS[key];
      const net = c.network('test', { minWithdrawal, networkFee, sweepMinimum });
      setNetworkOverride('test', net, key);
      chains.set(key, { chain: c, net });
    },
    { chain: key, tokens },
  );
}
const rails = CHAINS.flatMap((chain) => (Object.keys(CHAIN_SPECS[chain].tokens) as Asset[]).map((token) => ({ chain, token })));

describe('the 50,000 case on every rail', () => {
  it.each(rails)(
    '$chain $token: priced 1, paid 50,001, the 50,000 refunded: the excess costs the merchant nothing',
    async ({ chain: key, token }) => {
      const { chain, net } = chains.get(key)!;
      const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
      const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
      await jobs();
      const decimals = CHAIN_SPECS[key].tokens[token]!.decimals;
      const units = (v: string) => parseUnits(v, decimals);
      const wallets = async () => ({
        hot: await chain.tokenBalance(chain.addresses.hot, chain.tokenOf(token)),
        fee: await chain.tokenBalance(chain.addresses.fee, chain.tokenOf(token)),
      });
      const before = { balance: (await balanceOf(t.test, token)).available as string, ...(await wallets()) };

      const inv = await createInvoice(t.test, { amount: '1.00', chain: key, token });
      await sendToken(chain, token, inv.depositAddress, '50001');
      for (let i = 0; i < 3; i++) {
        await chain.mine(6);
        await jobs();
      }
      expect(await invoiceDetail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '49500.99', feeAmount: '500.01' });

      const payer = freshAddress();
      const r = await call('POST', `/v1/invoices/${inv.id}/refunds`, { key: t.test, body: { destinationAddress: payer } });
      expect(r.status, r.text).toBe(201);
      const networkFee = NETWORK_COST_DEFAULTS[key].networkFee;
      const received = new Decimal('50000').minus(networkFee);
      expect(r.body).toMatchObject({ amount: '50000.00', feeAmount: networkFee, netAmount: received.toFixed(2), chain: key, token });
      // The price's 0.99 and nothing else: the 50,000 and its 500.00 of invoice fee went back, no withdrawal fee was taken.
      expect(new Decimal((await balanceOf(t.test, token)).available).minus(before.balance).toFixed(2)).toBe('0.99');
      // What is left (the price) is stated in the invoice's own token, not USDT on a USDC invoice.
      const over = await call('POST', `/v1/invoices/${inv.id}/refunds`, { key: t.test, body: { destinationAddress: payer, amount: '2.00' } });
      expect(over.status, over.text).toBe(400);
      expect(over.body.message).toBe(`At most 1.00 ${token} of this invoice can be refunded.`);

      for (let i = 0; i < 4 && (await call('GET', `/v1/withdrawals/${r.body.id}`, { key: t.test })).body.status !== 'COMPLETED'; i++) {
        await processWithdrawals(t.db, net as LaneNetwork);
        await chain.mine(6);
      }
      expect((await call('GET', `/v1/withdrawals/${r.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
      expect(await chain.tokenBalance(getAddress(payer) as Address, chain.tokenOf(token))).toBe(units(received.toFixed()));
      const after = await wallets();
      expect(after.fee - before.fee, 'fee wallet: the fee on the price only').toBe(units('0.01'));
      expect(after.hot - before.hot, "hot wallet: the merchant's 0.99 and the network fee").toBe(
        units(new Decimal('0.99').plus(networkFee).toFixed()),
      );
      expect(new Decimal((await balanceOf(t.test, token)).available).minus(before.balance).toFixed(2)).toBe('0.99');
      for (const s of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(s.ledger).eq(s.balance), s.currency).toBe(true);
    },
  );
});
