import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { ALL_RAILS, railId, type ChainKey } from '@/lib/config/rails';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startMatrixChains, type MatrixChain } from '@/lib/testing/rail-matrix/matrix-chains';
import { balanceOf, createInvoice, invoiceDetail, ledgerSums } from '@/lib/testing/two-rails';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 30 §2, the 50,000 case: through a public payment page anyone can pay 1 + 50,000 and ask the 50,000 back.
 * It used to cost the merchant the invoice fee on the 50,000 and a withdrawal fee on top (about 1,000 at 1 % + 1 %).
 * Now, on every rail of the table (TRON's too: issue 43), each network with its default costs
 * (lib/config/network-costs.ts): the merchant's balance ends exactly where a payment of the price alone leaves it
 * (0.99: the price less its 1 % fee), the excess having cost it nothing; the payer gets the 50,000 less the network's
 * flat fee at their own address form; on chain, the fee on the price only was taken (to the fee wallet, or kept in the
 * hot wallet by TRON's one-transfer sweep) and the hot wallet kept the merchant's 0.99 and the network fee.
 */
let chains: Map<ChainKey, MatrixChain>;
beforeAll(async () => {
  chains = await startMatrixChains(ALL_RAILS.map(railId));
}, 120_000);
afterAll(async () => {
  for (const c of chains?.values() ?? []) await c.stop();
});

const delta = (after: string, before: string) => new Decimal(after).minus(before).toFixed();

describe('the 50,000 case on every rail', () => {
  it.each(ALL_RAILS)(
    '$chain $token: priced 1, paid 50,001, the 50,000 refunded: the excess costs the merchant nothing',
    async ({ chain: key, token }) => {
      const c = chains.get(key)!;
      const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
      const jobs = () => runInvoiceJobs(t.db, c.net, { retry: { maxAttempts: 2, backoffMs: 0 }, hooks: c.settleHooks });
      await jobs();
      const wallets = async () => ({ hot: await c.held(c.wallets.hot, token), fee: await c.held(c.wallets.fee, token) });
      const before = { balance: (await balanceOf(t.test, token)).available as string, ...(await wallets()) };

      const inv = await createInvoice(t.test, { amount: '1.00', chain: key, token });
      await c.pay(inv.depositAddress, token, '50001');
      for (let i = 0; i < 3; i++) {
        await c.mine(c.confirmations + 1);
        await jobs();
      }
      expect(await invoiceDetail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '49500.99', feeAmount: '500.01' });

      const payer = c.freshAddress();
      const r = await call('POST', `/v1/invoices/${inv.id}/refunds`, { key: t.test, body: { destinationAddress: payer } });
      expect(r.status, r.text).toBe(201);
      const networkFee = NETWORK_COST_DEFAULTS[key].networkFee;
      const received = new Decimal('50000').minus(networkFee);
      expect(r.body).toMatchObject({
        amount: '50000.00',
        feeAmount: networkFee,
        netAmount: received.toFixed(2),
        chain: key,
        token,
        destinationAddress: payer,
      });
      // The price's 0.99 and nothing else: the 50,000 and its 500.00 of invoice fee went back, no withdrawal fee was taken.
      expect(new Decimal((await balanceOf(t.test, token)).available).minus(before.balance).toFixed(2)).toBe('0.99');
      // What is left (the price) is stated in the invoice's own token, not USDT on a USDC invoice.
      const over = await call('POST', `/v1/invoices/${inv.id}/refunds`, { key: t.test, body: { destinationAddress: payer, amount: '2.00' } });
      expect(over.status, over.text).toBe(400);
      expect(over.body.message).toBe(`At most 1.00 ${token} of this invoice can be refunded.`);

      for (let i = 0; i < 4 && (await call('GET', `/v1/withdrawals/${r.body.id}`, { key: t.test })).body.status !== 'COMPLETED'; i++) {
        await processWithdrawals(t.db, c.net);
        await c.mine(c.confirmations + 1);
      }
      expect((await call('GET', `/v1/withdrawals/${r.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
      expect(await c.held(payer, token)).toBe(received.toFixed());
      const after = await wallets();
      // The fee on the price only, in the fee wallet or (TRON's one-transfer sweep) left in the hot wallet.
      const fee = c.sweptFeeTo === 'fee' ? '0.01' : '0';
      expect(delta(after.fee, before.fee), 'fee wallet: the fee on the price only').toBe(fee);
      expect(delta(after.hot, before.hot), "hot wallet: the merchant's 0.99 and the network fee").toBe(
        new Decimal('0.99').plus(networkFee).plus('0.01').minus(fee).toFixed(),
      );
      expect(new Decimal((await balanceOf(t.test, token)).available).minus(before.balance).toFixed(2)).toBe('0.99');
      for (const s of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(s.ledger).eq(s.balance), s.currency).toBe(true);
    },
  );
});
