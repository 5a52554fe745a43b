import { eq } from 'drizzle-orm';
import { chainTransfers } from '@/db/schema';
import type { Db } from '@/lib/db';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from './anvil';
import { call } from './app';
import { createTestTenant } from './fixtures';
import { withTestChain } from './test-chain';
import { createInvoice, invoiceDetail, sendFromCustomer } from './two-rails';

/** The rail the screening tests pay and withdraw on. */
export const SCREENING_RAIL = { chain: 'ETHEREUM', token: 'USDT' } as const;

export interface ScreeningChain {
  chain: AnvilChain;
  /** Test mode's ETHEREUM network (confirmations 2), installed as its override. */
  net: Network;
}

/**
 * The screening tests' chain (lib/screening, lib/payments/screening-holds): one anvil with Ethereum USDT installed as
 * test mode's ETHEREUM network for the file. The returned object is filled once the chain is up (use it inside tests);
 * `ready` runs then (deploy the oracle, point live mode at it).
 */
export function withScreeningChain<X extends object = object>(ready?: (c: ScreeningChain) => X | Promise<X>): ScreeningChain & X {
  const out = {} as ScreeningChain & X;
  withTestChain(
    async (chain) => {
      const net = chain.network('test', { confirmations: 2 });
      setNetworkOverride('test', net, 'ETHEREUM');
      Object.assign(out, { chain, net });
      if (ready) Object.assign(out, await ready({ chain, net }));
    },
    { chain: 'ETHEREUM', tokens: [{ asset: 'USDT', decimals: 6 }] },
  );
  return out;
}

/** POST /v1/withdrawals on the screening rail unless the body names another. */
export const withdrawOn = (key: string, body: Record<string, string>) =>
  call('POST', '/v1/withdrawals', { key, body: { ...SCREENING_RAIL, ...body } });

/** The invoice jobs for `db` on `net`: no retry waits. */
export const invoiceJobs = (db: Db, net: Network) => () => runInvoiceJobs(db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });

/** Mines past the confirmations and runs the jobs, `rounds` times: a payment sent before is detected, confirmed and swept. */
export async function mineAndWatch(chain: AnvilChain, jobs: () => Promise<unknown>, rounds = 4): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await chain.mine(3);
    await jobs();
  }
}

/**
 * A new tenant's 10.00 USDT invoice on the screening rail; `before` runs, then the customer's own wallet
 * (sendFromCustomer: always the same sender) pays it and the jobs watch it through its confirmations.
 */
export async function payFromCustomer(
  eth: ScreeningChain,
  before: () => Promise<unknown> = async () => {},
  tenant: { invoiceFeeRate?: string } = {},
) {
  const t = await createTestTenant(tenant);
  const jobs = invoiceJobs(t.db, eth.net);
  await jobs();
  const inv = await createInvoice(t.test, { amount: '10.00', ...SCREENING_RAIL });
  await before();
  const sender = await sendFromCustomer(eth.chain, 'USDT', inv.depositAddress, '10');
  await mineAndWatch(eth.chain, jobs);
  const detail = await invoiceDetail(t.test, inv.id);
  const transfers = await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id));
  return { t, inv, jobs, sender, detail, transfers };
}
