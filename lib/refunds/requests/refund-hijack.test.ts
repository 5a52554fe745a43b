import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refundRequests } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { claimOf, refundHijackViolations, runRefundHijack } from '@/lib/testing/refund-hijack';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { proposeRefundAddress } from './propose-refund-address';

let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});
const { settledInvoice } = settledInvoices(() => ({ chain, net }));

describe('refund-hijack (issue 30 §1): an invoice id is not a credential', () => {
  it('a proposal with only the invoice id is refused with claim_token_required, writing nothing', async () => {
    const t = await settledInvoice('10.00', '15.00');
    for (const claimToken of [undefined, '', 'not-the-token', 'A'.repeat(43)]) {
      const err = await proposeRefundAddress(t.db, t.invoice.id, { destinationAddress: freshAddress(), claimToken }, { address: null }).catch(
        (e: unknown) => e,
      );
      expect(err, String(claimToken)).toMatchObject({ code: 'claim_token_required', status: 403 });
    }
    expect(await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, t.invoice.id))).toEqual([]);
  });

  it('an invoice without a claim token (made before tokens) takes no payer proposal at all', async () => {
    const t = await settledInvoice('10.00', '15.00');
    const { invoices } = await import('@/db/schema');
    await t.db.update(invoices).set({ claimTokenHash: null }).where(eq(invoices.id, t.invoice.id));
    const err = await proposeRefundAddress(t.db, t.invoice.id, { destinationAddress: freshAddress(), claimToken: t.claim }, { address: null }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'claim_token_required', status: 403 });
  });

  it('a member, a support user, an invoices:read key and an orders:manage key cannot redirect the refund; the payer with the token can', async () => {
    const r = await runRefundHijack(chain, net);
    expect(refundHijackViolations(r)).toEqual([]);
    expect(r.attempts.filter((a) => a.who !== 'payer').length).toBeGreaterThanOrEqual(12);
    expect(r.payer.request).toMatchObject({ source: 'payer_token', status: 'APPROVED' });
  });

  it('the token is in the create response only: a second proposal needs it too, and the first stays in the history', async () => {
    const t = await settledInvoice('10.00', '15.00');
    expect(t.claim).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const first = await proposeRefundAddress(t.db, t.invoice.id, { destinationAddress: freshAddress(), claimToken: t.claim }, { address: null });
    const hijack = await proposeRefundAddress(t.db, t.invoice.id, { destinationAddress: freshAddress() }, { address: null }).catch((e: unknown) => e);
    expect(hijack).toMatchObject({ code: 'claim_token_required' });
    const second = await proposeRefundAddress(t.db, t.invoice.id, { destinationAddress: freshAddress(), claimToken: t.claim }, { address: null });
    const rows = await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, t.invoice.id));
    expect(rows.map((r) => [r.id, r.status, r.source]).sort()).toEqual(
      [
        [first.request.id, 'SUPERSEDED', 'payer_token'],
        [second.request.id, 'PENDING', 'payer_token'],
      ].sort(),
    );
    expect(claimOf(t.invoice.checkoutUrl)).toBeUndefined();
  });
});
