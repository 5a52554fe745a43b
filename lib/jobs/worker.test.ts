import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import { runWorker } from '@/lib/jobs/worker';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { INVOICE_JOBS } from '@/lib/jobs/invoice-jobs';

let chain: AnvilChain;
const h = invoiceHelpers(() => chain);

// Interval mining like BSC: the worker's jobs see blocks arrive on their own.
withTestChain(
  (c) => {
    chain = c;
  },
  { blockTime: 0.45 },
);

it('the local worker takes a paid invoice to PAID_OUT on its own', async () => {
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  const controller = new AbortController();
  const worker = runWorker({ db: t.db, signal: controller.signal, jobs: INVOICE_JOBS.filter((j) => j.name !== 'deposit-address-pool'), tickMs: 50 });
  try {
    const inv = await h.create(t.test, { amount: '8.00' });
    await h.pay(t.test, inv.id, '8');
    // Poll the row, not the API: the key's rate limit is not what is under test.
    for (let i = 0; i < 300; i++) {
      const [row] = await t.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, inv.id));
      if (row?.status === 'PAID_OUT') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountCredited: '7.92', feeAmount: '0.08' });
    expect(d.events.map((e: { type: string }) => e.type)).toEqual([
      'invoice.created',
      'invoice.detected',
      'invoice.confirmed',
      'invoice.processing_payout',
      'invoice.paid_out',
    ]);
  } finally {
    controller.abort();
    await worker;
  }
});
