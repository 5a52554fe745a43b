import { asc, eq } from 'drizzle-orm';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { chainTransfers } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * The on-chain senders (`from`) of an invoice's payments, EIP-55, first payment first, each once: shown beside a
 * proposed refund address so the merchant sees whether the money would go back where it came from. The caller
 * has already found the invoice in the tenant's scope.
 */
export async function paymentSenders(db: Db, invoiceId: string): Promise<string[]> {
  const rows = await db
    .select({ from: chainTransfers.fromAddress })
    .from(chainTransfers)
    .where(eq(chainTransfers.invoiceId, invoiceId))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
  return [...new Set(rows.map((r) => formatAddress(r.from)))];
}
