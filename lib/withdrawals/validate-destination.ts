import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import type { Network } from '@/lib/chain/network';
import { invalidDestination, parseDestination } from './parse-destination';

/**
 * A withdrawal destination: parseDestination's checks, and not a deposit
 * address of this gateway (sending there would strand or loop funds).
 * Returns the checksummed form.
 */
export async function validateDestination(db: Db, network: Network, raw: string): Promise<`0x${string}`> {
  const address = parseDestination(network, raw);
  // Plain values only: this runs on every withdrawal, and a builder query costs more CPU to assemble than to run.
  const deposit = rowsOf(
    // Any network's invoice: the same address exists on every EVM chain.
    await db.execute(sql`select 1 from invoices where deposit_address = ${address.toLowerCase()} limit 1`),
  );
  if (deposit.length > 0) throw invalidDestination('is a deposit address of this gateway');
  return address;
}
