import { eq } from 'drizzle-orm';
import { invoices, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { CHAIN_SPECS, type ChainKey } from '@/lib/config/rails';
import { formatAmount } from '@/lib/money';
import { openClaim } from './open-claim';

export interface ClaimPageView {
  tenantName: string;
  amount: string;
  token: string;
  /** e.g. "USDC on Ethereum": the rail the refund is paid on. */
  rail: string;
  expiresAt: string;
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
    .select({ tenantName: tenants.name, chain: invoices.chain, token: invoices.token })
    .from(invoices)
    .innerJoin(tenants, eq(tenants.id, invoices.tenantId))
    .where(eq(invoices.id, c.invoiceId));
  if (!row) return null;
  const network = CHAIN_SPECS[row.chain as ChainKey]?.name ?? row.chain;
  return {
    tenantName: row.tenantName,
    amount: formatAmount(c.amount),
    token: row.token,
    rail: `${row.token} on ${network}`,
    expiresAt: c.expiresAt.toISOString(),
  };
}
