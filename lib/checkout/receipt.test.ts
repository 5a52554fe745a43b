import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { getReceipt } from './get-receipt';

let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

describe('return link and receipt (issue 35)', () => {
  it('refuses a returnUrl that is not an absolute http(s) URL, with the field named', async () => {
    const t = await createTestTenant();
    for (const returnUrl of [
      'javascript:alert(1)',
      'data:text/html,hi',
      '/orders/42',
      'ftp://shop.example/x',
      `https://shop.example/${'a'.repeat(2000)}`,
    ]) {
      const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', returnUrl } });
      expect(res.status, returnUrl).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.text).toContain('returnUrl');
    }
  });

  it("the paid checkout links the merchant's returnUrl and a receipt that exists only once the payment is confirmed", async () => {
    const t = await createTestTenant({ name: 'Receipt Shop' });
    await runInvoiceJobs(t.db, net);
    const inv = await call('POST', '/v1/invoices', {
      key: t.test,
      body: { amount: '12.00', returnUrl: 'https://shop.example/orders/42', description: 'private note', externalId: 'ref-secret' },
    });
    expect(inv.status, inv.text).toBe(201);
    expect(inv.body.returnUrl).toBe('https://shop.example/orders/42');
    expect((await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test })).body.returnUrl).toBe('https://shop.example/orders/42');
    expect((await call('GET', `/api/pay/${inv.body.id}/status`)).body.returnUrl).toBe('https://shop.example/orders/42');
    expect(await getReceipt(t.db, inv.body.id)).toBeNull();

    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: '12.5' } });
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await runInvoiceJobs(t.db, net);
    // Detected, not confirmed: no receipt for money a reorg can still take away.
    expect(await getReceipt(t.db, inv.body.id)).toBeNull();
    await chain.mine(5);
    await runInvoiceJobs(t.db, net);

    const receipt = await getReceipt(t.db, inv.body.id);
    expect(receipt).toMatchObject({
      tenantName: 'Receipt Shop',
      amountPaid: '12.50',
      amountExpected: '12.00',
      token: inv.body.token,
      returnUrl: 'https://shop.example/orders/42',
      payments: [{ txHash: paid.body.txHash, amount: '12.50' }],
    });
    expect(JSON.stringify(receipt)).not.toMatch(/private note|ref-secret/);
    expect(await getReceipt(t.db, 'inv_00000000000000000000000000')).toBeNull();
  });
});
