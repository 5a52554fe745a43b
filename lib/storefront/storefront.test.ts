import { and, count, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { events, invoices, orders, products } from '@/db/schema';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';

let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

const eventTypes = async (db: any, id: string) =>
  (await db.select({ type: events.type, data: events.data }).from(events).where(eq(events.subjectId, id)).orderBy(events.createdAt, events.id)) as {
    type: string;
    data: any;
  }[];

async function shop() {
  const t = await createTestTenant();
  const product = await call('POST', '/v1/products', { key: t.test, body: { name: 'T-shirt', price: '12.50', description: 'Cotton' } });
  expect(product.status, product.text).toBe(201);
  return { ...t, product: product.body };
}

describe('products API', () => {
  it('creates, lists, reads and updates products; archived ones cannot be bought', async () => {
    const t = await shop();
    expect(t.product).toMatchObject({ name: 'T-shirt', price: '12.50', description: 'Cotton', imageUrl: null, active: true });
    const list = await call('GET', '/v1/products?active=true', { key: t.test });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([t.product.id]);
    const upd = await call('PATCH', `/v1/products/${t.product.id}`, { key: t.test, body: { price: '15.00', active: false } });
    expect(upd.body).toMatchObject({ price: '15.00', active: false });
    const order = await call('POST', '/v1/orders', {
      key: t.test,
      body: { items: [{ productId: t.product.id, quantity: 1 }], customerEmail: 'a@b.co' },
    });
    expect(order.status).toBe(400);
    expect(order.body.details[0]).toMatchObject({ path: 'items.0.productId', message: 'this product is not for sale' });
    // The live key sees no test products.
    expect((await call('GET', '/v1/products', { key: t.live })).body.data).toEqual([]);
  });

  it.each([
    [{ name: '', price: '1.00' }, 'name'],
    [{ name: 'x', price: '0' }, 'price'],
    [{ name: 'x', price: '1.001' }, 'price'],
    [{ name: 'x', price: 'abc' }, 'price'],
    [{ name: 'x', price: '1.00', imageUrl: 'http://example.com/a.png' }, 'imageUrl'],
    [{ name: 'x', price: '1.00', colour: 'red' }, ''],
  ])('rejects %j with details, nothing written', async (body, path) => {
    const t = await createTestTenant();
    const res = await call('POST', '/v1/products', { key: t.test, body });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    const [n] = await t.db.select({ n: count() }).from(products).where(eq(products.tenantId, t.tenant.id));
    expect(Number(n!.n)).toBe(0);
  });

  it('needs orders:manage', async () => {
    const t = await createTestTenant();
    const { key } = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['invoices:write'] });
    const res = await call('GET', '/v1/products', { key });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('orders:manage');
  });
});

describe('orders', () => {
  it('order → invoice; paying confirms the invoice and pays the order (order.paid); fulfil emits order.fulfilled', async () => {
    const t = await shop();
    await runInvoiceJobs(t.db, net);
    const res = await call('POST', '/v1/orders', {
      key: t.test,
      body: { items: [{ productId: t.product.id, quantity: 2 }], customerEmail: 'Buyer@Example.com' },
    });
    expect(res.status, res.text).toBe(201);
    const order = res.body;
    expect(order).toMatchObject({
      status: 'PENDING_PAYMENT',
      total: '25.00',
      customerEmail: 'buyer@example.com',
      items: [{ productId: t.product.id, name: 'T-shirt', unitPrice: '12.50', quantity: 2, amount: '25.00' }],
      // The customer's checkout with their claim token, in this response only (issue 30 §1); GET shows the bare page.
      checkoutUrl: expect.stringMatching(new RegExp(`^/pay/${order.invoiceId}\\?claim=[A-Za-z0-9_-]{43}$`)),
    });
    const got = await call('GET', `/v1/orders/${order.id}`, { key: t.test });
    expect(got.body.checkoutUrl).toBe(`/pay/${order.invoiceId}`);
    const listed = await call('GET', '/v1/orders', { key: t.test });
    expect(listed.text).not.toContain(order.checkoutUrl.split('claim=')[1]);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, order.invoiceId));
    expect(inv).toMatchObject({ amountExpected: '25.000000000000000000', externalId: order.id, metadata: { orderId: order.id } });

    // Fulfilling before payment is refused.
    expect((await call('POST', `/v1/orders/${order.id}/fulfill`, { key: t.test })).status).toBe(409);

    const paid = await call('POST', `/v1/test-helpers/invoices/${order.invoiceId}/pay`, { key: t.test, body: { amount: '25.00' } });
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await runInvoiceJobs(t.db, net);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: t.test })).body.status).toBe('PENDING_PAYMENT');
    await chain.mine(5);
    await runInvoiceJobs(t.db, net);
    const afterPay = await call('GET', `/v1/orders/${order.id}`, { key: t.test });
    expect(afterPay.body.status).toBe('PAID');
    expect(afterPay.body.paidAt).not.toBeNull();
    // Paid orders cannot be cancelled.
    const cancel = await call('POST', `/v1/orders/${order.id}/cancel`, { key: t.test });
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe('invalid_state');

    const done = await call('POST', `/v1/orders/${order.id}/fulfill`, { key: t.test });
    expect(done.body.status).toBe('FULFILLED');
    const evts = await eventTypes(t.db, order.id);
    expect(evts.map((e) => e.type)).toEqual(['order.created', 'order.paid', 'order.fulfilled']);
    expect(evts[1]!.data).toEqual({
      id: order.id,
      status: 'PAID',
      items: order.items,
      total: '25.00',
      customerEmail: 'buyer@example.com',
      invoiceId: order.invoiceId,
      createdAt: order.createdAt,
    });
    const list = await call('GET', '/v1/orders?status=FULFILLED', { key: t.test });
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([order.id]);
  });

  it('an invoice expiring unpaid cancels the order; the merchant can cancel an unpaid order', async () => {
    const t = await shop();
    await runInvoiceJobs(t.db, net);
    const a = (
      await call('POST', '/v1/orders', { key: t.test, body: { items: [{ productId: t.product.id, quantity: 1 }], customerEmail: 'a@b.co' } })
    ).body;
    const b = (
      await call('POST', '/v1/orders', { key: t.test, body: { items: [{ productId: t.product.id, quantity: 1 }], customerEmail: 'c@d.co' } })
    ).body;
    await t.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invoices.id, a.invoiceId));
    await chain.mine(1);
    await runInvoiceJobs(t.db, net);
    const expired = await call('GET', `/v1/orders/${a.id}`, { key: t.test });
    expect(expired.body).toMatchObject({ status: 'CANCELLED', cancelReason: 'invoice_expired' });
    const cancelled = await call('POST', `/v1/orders/${b.id}/cancel`, { key: t.test });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelReason: 'cancelled_by_merchant' });
    expect((await eventTypes(t.db, a.id)).map((e) => e.type)).toEqual(['order.created', 'order.cancelled']);
    expect((await eventTypes(t.db, b.id)).map((e) => e.type)).toEqual(['order.created', 'order.cancelled']);
  });

  it("rejects another tenant's product, bad quantities and emails; nothing written", async () => {
    const t = await shop();
    const other = await shop();
    const cases = [
      { items: [{ productId: other.product.id, quantity: 1 }], customerEmail: 'a@b.co' },
      { items: [{ productId: t.product.id, quantity: 0 }], customerEmail: 'a@b.co' },
      { items: [{ productId: t.product.id, quantity: 1.5 }], customerEmail: 'a@b.co' },
      { items: [], customerEmail: 'a@b.co' },
      { items: [{ productId: t.product.id, quantity: 1 }], customerEmail: 'not-an-email' },
    ];
    for (const body of cases) {
      const res = await call('POST', '/v1/orders', { key: t.test, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const [n] = await t.db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.tenantId, t.tenant.id)));
    expect(Number(n!.n)).toBe(0);
  });
});
