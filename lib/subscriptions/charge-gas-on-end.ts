import { sql } from 'drizzle-orm';
import type { Subscription } from '@/db/schema';
import type { Db } from '@/lib/db';
import { lockBalance } from '@/lib/ledger/lock-balance';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import { gasCharges, unchargedGas } from './uncharged-gas';

/**
 * A subscription ends (canceled now, at its period end, or out of grace): the gas it caused that no credit paid yet,
 * its USDC set-up's and the rest of a pull's above its credit, is charged now from the merchant's available balance,
 * in the transaction of the cancel, up to what the balance holds (never below zero). What it does not cover rides on
 * the tenant's next credit in that asset and mode (collect/pull-fee-entries.ts). A pull confirmed but not credited yet
 * is left to its own credit. Call it last in the transaction: it locks the balance rows.
 */
export async function chargeGasOnEnd(tx: Db, sub: Pick<Subscription, 'id' | 'tenantId' | 'mode'>): Promise<void> {
  const uncharged = () =>
    unchargedGas(tx, {
      tenantId: sub.tenantId,
      mode: sub.mode,
      pulls: sql`p.subscription_id = ${sub.id} and ch.parts > 0`,
      setups: sql`c.subscription_id = ${sub.id}`,
    });
  const currencies = [...new Set((await uncharged()).map((c) => c.currency))].sort();
  if (currencies.length === 0) return;
  // The balances locked first, then what is uncharged read again: a credit charging a part meanwhile (it posts under
  // that lock) is seen, so this never writes a part number the credit already wrote.
  const owners = currencies.map((currency) => ({ tenantId: sub.tenantId, mode: sub.mode, currency }));
  const available = [];
  for (const o of owners) available.push(await lockBalance(tx, o));
  const costs = await uncharged();
  for (const [i, o] of owners.entries()) await postLedgerEntries(tx, gasCharges(costs, o, available[i]!));
}
