import type { Db } from '@/lib/db';
import type { Network } from '@/lib/chain/network';
import type { WatchOptions } from '@/lib/payments/watch-chain';
import { watchNetwork } from '@/lib/payments/watch-families';
import { createSettlements } from '@/lib/settlements/create-settlements';
import { expireInvoices } from '@/lib/invoices/expire-invoices';
import type { RetryPolicy } from '@/lib/settlements/record-settlement-failure';
import { runSettlements } from '@/lib/settlements/run-settlements';
import type { SettleHooks, SettleNetwork } from '@/lib/settlements/settle-invoice';

/**
 * Every invoice job of one network once, in pipeline order (watch, expire,
 * fan out, settle): for tests, benches and scripts that want a deterministic step.
 */
export async function runInvoiceJobs(db: Db, net: Network, opts: { watch?: WatchOptions; retry?: RetryPolicy; hooks?: SettleHooks } = {}) {
  // Each family's watcher (lib/payments/watch-families.ts).
  const watched = await watchNetwork(db, net as SettleNetwork, opts.watch);
  const expired = await expireInvoices(db, net);
  const settlementsCreated = await createSettlements(db, net);
  const settled = await runSettlements(db, net as SettleNetwork, { retry: opts.retry, hooks: opts.hooks });
  return { ...watched, expired, settlementsCreated: settlementsCreated.length, ...settled };
}
