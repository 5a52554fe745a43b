import { erc20Abi, formatUnits, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/invoices/run-invoice-jobs';
import { getBalance } from '@/lib/ledger/get-balance';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

let chain: AnvilChain;
let net: Network;
let seq = 0;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});

const freshAddress = (): Address => `0x${(BigInt(Date.now()) * 1_000_003n + BigInt(++seq) + 7n).toString(16).padStart(40, '0')}` as Address;

/**
 * A tenant (1 % invoice fee, 1 % withdrawal fee) with one invoice of `expected` paid `paid` on chain and settled,
 * plus `extra` credited otherwise (other sales), so the balance can pay a refund and its fee.
 */
async function settledInvoice(expected: string, paid: string, opts: { expire?: boolean; extra?: string } = {}) {
  const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
  if (opts.extra) {
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: opts.extra!,
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `refund-${process.pid}-${++seq}`,
      }),
    );
  }
  const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
  await jobs();
  const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: expected, expiresInMinutes: 5 } });
  expect(inv.status, inv.text).toBe(201);
  if (opts.expire) {
    await chain.client.request({ method: 'evm_increaseTime' as never, params: [400] as never });
    await chain.mine(1);
    await jobs();
  }
  const res = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: paid } });
  expect(res.status, res.text).toBe(200);
  await chain.client.waitForTransactionReceipt({ hash: res.body.txHash as Hex });
  for (let i = 0; i < 4; i++) {
    await chain.mine(6);
    await jobs();
  }
  const detail = (await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test })).body;
  return { ...t, invoice: detail, owner: { tenantId: t.tenant.id, mode: 'test' as const } };
}

const refund = (key: string, id: string, body: Record<string, unknown>) => call('POST', `/v1/invoices/${id}/refunds`, { key, body });
const balance = async (t: { db: any; owner: { tenantId: string; mode: 'test' } }) => (await getBalance(t.db, t.owner)).toString();
const onChain = async (to: Address) =>
  formatUnits(await chain.client.readContract({ address: chain.token, abi: erc20Abi, functionName: 'balanceOf', args: [to] }), 18);

async function send() {
  for (let i = 0; i < 3; i++) {
    await processWithdrawals((await createTestTenant()).db, net as LaneNetwork);
    await chain.mine(5);
  }
  await processWithdrawals((await createTestTenant()).db, net as LaneNetwork);
}

describe('refunds', () => {
  it('an overpayment is refunded by default: the payer gets exactly the excess on chain, the balance pays excess + fee', async () => {
    const t = await settledInvoice('100.00', '110.00');
    expect(t.invoice.status).toBe('PAID_OUT');
    expect(t.invoice.amountCredited).toBe('108.90');
    const before = await balance(t);
    const listed = await call('GET', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test });
    expect(listed.body).toEqual({ invoiceId: t.invoice.id, settled: '110.00', refunded: '0.00', refundable: '110.00', data: [] });

    const to = freshAddress();
    const r = await refund(t.test, t.invoice.id, { destinationAddress: to });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ amount: '10.00', feeAmount: '0.10', status: 'PENDING', metadata: { refundOfInvoiceId: t.invoice.id } });
    expect(await balance(t)).toBe(new Decimal(before).minus('10.10').toString());
    await send();
    expect(await onChain(to)).toBe('10');
    const after = (await call('GET', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test })).body;
    expect(after).toMatchObject({ refunded: '10.00', refundable: '100.00' });
    expect(after.data).toHaveLength(1);
    expect(after.data[0]).toMatchObject({ id: r.body.id, status: 'COMPLETED', amount: '10.00' });
    // Nothing more is over the price: the default now has nothing to give back, an explicit amount still works.
    expect((await refund(t.test, t.invoice.id, { destinationAddress: to })).body.code).toBe('nothing_to_refund');
    const part = await refund(t.test, t.invoice.id, { destinationAddress: to, amount: '30' });
    expect(part.status, part.text).toBe(201);
    const tooMuch = await refund(t.test, t.invoice.id, { destinationAddress: to, amount: '70.01' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ code: 'refund_exceeds_received' });
    expect(tooMuch.body.message).toContain('70.00');
  });

  it('an expired invoice paid late refunds everything it received by default', async () => {
    const t = await settledInvoice('50.00', '50.00', { expire: true, extra: '5' });
    expect(t.invoice.status).toBe('EXPIRED');
    const r = await refund(t.test, t.invoice.id, { destinationAddress: freshAddress() });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ amount: '50.00', feeAmount: '0.50' });
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
