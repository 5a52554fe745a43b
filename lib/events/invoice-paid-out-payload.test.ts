import { and, eq } from 'drizzle-orm';
import type { EvmNetwork } from '@/lib/chain/network';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { watchChain } from '@/lib/payments/watch-chain';
import { createSettlements } from '@/lib/settlements/create-settlements';
import { runSettlements } from '@/lib/settlements/run-settlements';
import type { SettleNetwork } from '@/lib/settlements/settle-invoice';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';

let chain: AnvilChain;
let net: SettleNetwork<EvmNetwork>;
const h = invoiceHelpers(() => chain);

withTestChain(async (c) => {
  chain = c;
  net = c.network('test') as SettleNetwork<EvmNetwork>;
});

/** A merchant reconciling from webhooks alone learns the fee and the credited amount from invoice.paid_out (issue 35). */
describe('invoice events carry the fee and the credited amount', () => {
  it('an overpaid invoice: invoice.created says 0/0, invoice.paid_out says what was kept and what was credited', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    await watchChain(t.db, net);
    const inv = await h.create(t.test, { amount: '10.00' });
    await h.pay(t.test, inv.id, '12');
    await chain.mine(5);
    await watchChain(t.db, net);
    await createSettlements(t.db, net);
    await runSettlements(t.db, net);

    const data = async (type: string) => {
      const [row] = await t.db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.subjectId, inv.id), eq(events.type, type)));
      expect(row, type).toBeDefined();
      return row!.data as Record<string, unknown>;
    };
    expect(await data('invoice.created')).toMatchObject({ feeAmount: '0.00', amountCredited: '0.00', amountReceived: '0.00' });
    expect(await data('invoice.paid_out')).toMatchObject({
      status: 'PAID_OUT',
      amountExpected: '10.00',
      amountReceived: '12.00',
      feeAmount: '0.12',
      amountCredited: '11.88',
    });
    const detail = await h.detail(t.test, inv.id);
    expect(detail).toMatchObject({ feeAmount: '0.12', amountCredited: '11.88' });
  });
});
