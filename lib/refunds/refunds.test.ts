import { describe, expect, it } from 'vitest';
import { type Network } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';

let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});

const { settledInvoice, balance, onChain, send } = settledInvoices(() => ({ chain, net }));
const refund = (key: string, id: string, body: Record<string, unknown>) => call('POST', `/v1/invoices/${id}/refunds`, { key, body });

describe('refunds', () => {
  it('an overpayment is refunded by default: the payer gets exactly the excess on chain and the merchant ends as if paid the price', async () => {
    const t = await settledInvoice('100.00', '110.00');
    expect(t.invoice.status).toBe('PAID_OUT');
    expect(t.invoice.amountCredited).toBe('108.90');
    const before = await balance(t);
    const listed = await call('GET', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test });
    expect(listed.body).toEqual({ invoiceId: t.invoice.id, settled: '110.00', refunded: '0.00', refundable: '110.00', data: [] });

    const to = freshAddress();
    const r = await refund(t.test, t.invoice.id, { destinationAddress: to });
    expect(r.status, r.text).toBe(201);
    // Issue 30 §2: no withdrawal fee on money the merchant never kept, and the invoice fee charged on it (0.10) comes back
    // with it: 108.90 − 10.00 + 0.10 = 99.00, exactly what a payment of the price (100.00 at 1 %) leaves.
    expect(r.body).toMatchObject({ amount: '10.00', feeAmount: '0.00', status: 'PENDING', metadata: { refundOfInvoiceId: t.invoice.id } });
    expect(await balance(t)).toBe(new Decimal(before).minus('9.90').toString());
    expect(await balance(t)).toBe('99');
    await send();
    expect(await onChain(to)).toBe('10');
    const after = (await call('GET', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test })).body;
    expect(after).toMatchObject({ refunded: '10.00', refundable: '100.00' });
    expect(after.data).toHaveLength(1);
    expect(after.data[0]).toMatchObject({ id: r.body.id, status: 'COMPLETED', amount: '10.00' });
    // Nothing more is over the price: the default now has nothing to give back, an explicit amount still works.
    expect((await refund(t.test, t.invoice.id, { destinationAddress: to })).body.code).toBe('nothing_to_refund');
    // Refunding the price itself (Stripe's rule): no fee for refunding, and the invoice fee on it is not returned.
    const part = await refund(t.test, t.invoice.id, { destinationAddress: to, amount: '30' });
    expect(part.status, part.text).toBe(201);
    expect(part.body).toMatchObject({ amount: '30.00', feeAmount: '0.00', netAmount: '30.00' });
    expect(await balance(t)).toBe('69');
    const tooMuch = await refund(t.test, t.invoice.id, { destinationAddress: to, amount: '70.01' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ code: 'refund_exceeds_received' });
    expect(tooMuch.body.message).toContain('70.00');
  });

  it('an expired invoice paid late refunds everything it received by default, its invoice fee with it: the balance is back where it was', async () => {
    const t = await settledInvoice('50.00', '50.00', { expire: true, extra: '5' });
    expect(t.invoice.status).toBe('EXPIRED');
    expect(await balance(t)).toBe('54.5');
    const r = await refund(t.test, t.invoice.id, { destinationAddress: freshAddress() });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ amount: '50.00', feeAmount: '0.00' });
    expect(await balance(t)).toBe('5');
  });

  it('concurrent refunds of one invoice never exceed what it settled: 12 × 10.00 on 110.00 → exactly 11', async () => {
    const t = await settledInvoice('100.00', '110.00', { extra: '100' });
    // The balance could pay more: only the invoice's own amount limits the burst.
    const to = freshAddress();
    const results = await Promise.all(Array.from({ length: 12 }, () => refund(t.test, t.invoice.id, { destinationAddress: to, amount: '10.00' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(11);
    expect(results.filter((r) => r.status !== 201).map((r) => r.body.code)).toEqual(['nothing_to_refund']);
    expect((await call('GET', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test })).body).toMatchObject({
      refunded: '110.00',
      refundable: '0.00',
    });
  });

  it('nothing settled is nothing to refund (409); bad input is a 400; another tenant or mode is a 404; scope withdrawals:write', async () => {
    const t = await createTestTenant();
    const open = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    const id = open.body.id as string;
    const to = freshAddress();
    const none = await refund(t.test, id, { destinationAddress: to });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('nothing_to_refund');
    for (const [body, code] of [
      [{}, 'validation_failed'],
      [{ destinationAddress: 'nope' }, 'invalid_address'],
      [{ destinationAddress: to, amount: 5 }, 'validation_failed'],
      [{ destinationAddress: to, amount: '1.001' }, 'invalid_amount'],
      [{ destinationAddress: to, extra: true }, 'validation_failed'],
    ] as const) {
      const res = await refund(t.test, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    const other = await createTestTenant();
    expect((await refund(other.test, id, { destinationAddress: to })).status).toBe(404);
    expect((await call('GET', `/v1/invoices/${id}/refunds`, { key: other.test })).status).toBe(404);
    expect((await refund(t.live, id, { destinationAddress: to })).status).toBe(404);
  });
});
