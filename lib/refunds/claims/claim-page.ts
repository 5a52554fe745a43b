import { eq } from 'drizzle-orm';
import { invoices, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { CHAIN_SPECS, familyOf, type ChainFamily } from '@/lib/config/rails';
import { Decimal, formatAmount } from '@/lib/money';
import { quoteRefund } from '@/lib/refunds/refund-pricing';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { openClaim } from './open-claim';

export interface ClaimPageView {
  tenantName: string;
  amount: string;
  token: string;
  /** e.g. "USDC on Ethereum": the rail the refund is paid on. */
  rail: string;
  /** The refund network's address form (`0x…` or `T…`), for the address field. */
  addressFamily: ChainFamily;
  expiresAt: string;
  /** The network fee of sending it and who pays it (the merchant's setting), shown before the payer confirms. */
  networkFee: string;
  networkFeePaidBy: 'payer' | 'merchant';
  /** What reaches the payer's address: the amount, less the network fee when the payer pays it. */
  youReceive: string;
}

/**
 * What the payer's claim page shows: who is refunding, how much, and on which token and network.
 * Null for anything but an open link (the page then says only that it is no longer valid): no
 * addresses, no invoice details.
 */
export async function claimPage(db: Db, token: string): Promise<ClaimPageView | null> {
  const c = await openClaim(db, token);
  if (!c) return null;
  const [row] = await db
    .select({ tenantName: tenants.name, invoice: invoices })
    .from(invoices)
    .innerJoin(tenants, eq(tenants.id, invoices.tenantId))
    .where(eq(invoices.id, c.invoiceId));
  if (!row) return null;
  const inv = row.invoice;
  const network = CHAIN_SPECS[inv.chain].name;
  // Priced as the approval would price it now (refund-pricing.ts).
  const quote = await quoteRefund(db, c, inv, new Decimal(c.amount), await givebackTerms(db, inv));
  return {
    tenantName: row.tenantName,
    amount: formatAmount(c.amount),
    token: inv.token,
    rail: `${inv.token} on ${network}`,
    addressFamily: familyOf(inv.chain),
    expiresAt: c.expiresAt.toISOString(),
    networkFee: formatAmount(quote.networkFee),
    networkFeePaidBy: quote.networkFeePaidBy,
    youReceive: formatAmount(quote.payerReceives),
  };
}
