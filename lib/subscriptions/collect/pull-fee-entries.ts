import { sql } from 'drizzle-orm';
import type { Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { PostEntryInput } from '@/lib/ledger/post-entry';
import { gasCharges, unchargedGas } from '../uncharged-gas';

/**
 * The debits of the pulls that brought a settlement's money, posted with its credit (lib/settlements/finish-settlement.ts):
 * each confirmed pull of the invoice's period pays its gas (collection_pulls.network_fee, priced at its confirmation)
 * from the money it brought, as a sweep below the minimum pays its fee from what it moves. Not at the confirmation
 * itself: the pulled money is not the merchant's balance yet, and a new merchant's balance could not pay it. Never more
 * than the credit it rides on, so the credit never becomes a debit. Posted in the credit's transaction, on the invoice's lock.
 * The gas of the payer's USDC set-up by signature (collection_setups, setup_network_fee) is charged the same way, with
 * the first credit of one of the subscription's invoices after it was confirmed.
 *
 * What a credit could not cover (a pull's gas above its own credit; what the balance did not cover when the
 * subscription ended, ../charge-gas-on-end.ts) rides on the tenant's next credit in that asset and mode, of any invoice:
 * the next part (../uncharged-gas.ts: reference `<id>:<n>`, once each by the ledger's unique index), oldest cost first.
 */
export async function pullFeeEntries(tx: Db, s: Settlement): Promise<PostEntryInput[]> {
  if (s.kind !== 'invoice' && s.kind !== 'extra') return [];
  const costs = await unchargedGas(tx, {
    tenantId: s.tenantId,
    mode: s.mode,
    pulls: sql`(p.invoice_id = ${s.invoiceId} or ch.parts > 0)`,
    setups: sql`(s.status = 'canceled' or ch.parts > 0
                 or exists (select 1 from subscription_periods sp where sp.subscription_id = c.subscription_id and sp.invoice_id = ${s.invoiceId}))`,
  });
  return gasCharges(costs, { tenantId: s.tenantId, mode: s.mode, currency: s.token }, s.netAmount);
}
