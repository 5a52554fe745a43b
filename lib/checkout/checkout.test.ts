import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { updateUnderpaymentTolerance } from '@/lib/tenants/update-underpayment-tolerance';

const ACTOR = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };

let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

describe('hosted checkout status', () => {
  it('shows only what the customer needs, follows partial payment and confirmations', async () => {
    const t = await createTestTenant({ name: 'Corner Shop' });
    await runInvoiceJobs(t.db, net);
    const inv = await call('POST', '/v1/invoices', {
      key: t.test,
      body: { amount: '40.00', externalId: 'secret-ref', description: 'private note', metadata: { customer: 'vip' } },
    });
    const res = await call('GET', `/api/pay/${inv.body.id}/status`);
    expect(res.status).toBe(200);
    // Issue 45: false on this run's chain; true only for an invoice of an earlier run's local chain (e2e/screens.spec.ts).
    expect(res.body.notWatched).toBe(false);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'amountExpected',
        'amountReceived',
        'amountShortfall',
        'addressFamily',
        'claimed',
        'confirmations',
        'confirmationsRequired',
        'depositAddress',
        'expiresAt',
        'heldPayments',
        'id',
        'mode',
        'network',
        'notWatched',
        'payUri',
        'payin',
        'payments',
        'price',
        'qrHasAmount',
        'qrSvg',
        'rail',
        'refund',
        'remaining',
        'renderedAt',
        'returnUrl',
        'status',
        'tenantName',
        'token',
      ].sort(),
    );
    expect(res.text).not.toContain('secret-ref');
    // Not the payer's page (no claim token): no refund form, and nothing of the token's hash.
    expect(res.body.claimed).toBe(false);
    expect(res.text).not.toMatch(/claimToken/i);
    expect(res.text).not.toContain('private note');
    expect(res.text).not.toContain('vip');
    expect(res.body).toMatchObject({ status: 'PENDING', tenantName: 'Corner Shop', amountExpected: '40.00', remaining: '40.00', mode: 'test' });
    // EIP-681 token transfer URI for wallets.
    expect(res.body.payUri.toLowerCase()).toBe(
      `ethereum:${chain.token}@${chain.chainId}/transfer?address=${inv.body.depositAddress}&uint256=40000000000000000000`.toLowerCase(),
    );

    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: '15.00' } });
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await runInvoiceJobs(t.db, net);
    const partial = await call('GET', `/api/pay/${inv.body.id}/status`);
    expect(partial.body).toMatchObject({ status: 'PARTIALLY_PAID', amountReceived: '15.00', remaining: '25.00', payments: 1 });
    // Pay the remainder: the URI and the QR the poll carries ask for exactly the 25.00 left.
    expect(partial.body.payUri).toMatch(/&uint256=25000000000000000000$/);
    expect(partial.body.qrSvg).toMatch(/^<svg/);
    expect(partial.body.qrSvg).not.toBe(res.body.qrSvg);

    const rest = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: '25.00' } });
    await chain.client.waitForTransactionReceipt({ hash: rest.body.txHash as Hex });
    await chain.mine(2);
    await runInvoiceJobs(t.db, net);
    const detected = await call('GET', `/api/pay/${inv.body.id}/status`);
    expect(detected.body).toMatchObject({ status: 'DETECTED', confirmations: 2, confirmationsRequired: 5, remaining: '0.00', qrSvg: '' });
  });

  it('a payment accepted within the tolerance shows its shortfall and no QR', async () => {
    const t = await createTestTenant({ name: 'Tolerant Shop' });
    await updateUnderpaymentTolerance(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, { underpaymentTolerancePercent: '1' });
    await runInvoiceJobs(t.db, net);
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '50.00' } });
    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: '49.75' } });
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await runInvoiceJobs(t.db, net);
    const res = await call('GET', `/api/pay/${inv.body.id}/status`);
    expect(res.body).toMatchObject({ status: 'DETECTED', amountShortfall: '0.25', remaining: '0.25', price: null, qrSvg: '' });
  });

  it('404 for unknown and malformed ids', async () => {
    expect((await call('GET', '/api/pay/inv_00000000000000000000000000/status')).status).toBe(404);
    expect((await call('GET', '/api/pay/nope/status')).status).toBe(404);
  });
});
