import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { invoices } from '@/db/schema';
import { ADDRESS_RULES, addressRuleOf } from '@/lib/chain/address-rules';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { CHAIN_SPECS, familyOf, type Asset, type ChainKey, type RailKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { call } from '../app';
import { createTestTenant } from '../fixtures';
import type { MatrixChain } from './matrix-chain';

/**
 * What every row of the rail matrix (rail-matrix.test.ts) shares on one rail: its chain, a tenant of its own, and
 * what the earlier rows of the rail left for the later ones (the overpaid invoice a refund comes from, the held payment
 * a send-back returns). The address facts come from the family's rule (lib/chain/address-rules.ts), never from the test.
 */
export interface RailRun {
  rail: RailKey;
  chain: ChainKey;
  token: Asset;
  c: MatrixChain;
  db: Db;
  tenantId: string;
  key: string;
  /** One pass of the network's invoice jobs (watcher, confirmations, sweep). */
  jobs(): Promise<void>;
  /** Mines and runs the jobs until a payment is confirmed and swept. */
  settle(): Promise<void>;
  /** Sends due withdrawals and mines until `id` is COMPLETED; answers the withdrawal as the API shows it. */
  sendWithdrawal(id: string): Promise<Record<string, any>>;
  /** The network's other token (a wrong-token payment), or undefined when the table gives it one token only. */
  otherToken?: Asset;
  state: {
    overpaid?: { id: string; claim: string; payer: string };
    held?: { invoiceId: string; paymentId: string; payer: string; amount: string };
    requestId?: string;
    withdrawalIds: string[];
  };
}

export async function startRailRun(rail: RailKey, c: MatrixChain, otherToken?: Asset): Promise<RailRun> {
  const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
  const jobs = async () => {
    await runInvoiceJobs(t.db, c.net, { retry: { maxAttempts: 2, backoffMs: 0 }, hooks: c.settleHooks });
  };
  await jobs(); // the watcher's cursor starts below the head
  const run: RailRun = {
    rail,
    chain: rail.chain,
    token: rail.token,
    c,
    db: t.db,
    tenantId: t.tenant.id,
    key: t.test,
    jobs,
    async settle() {
      for (let i = 0; i < 3; i++) {
        await c.mine(c.confirmations + 1);
        await jobs();
      }
    },
    async sendWithdrawal(id) {
      for (let i = 0; i < 5; i++) {
        const w = await call('GET', `/v1/withdrawals/${id}`, { key: t.test });
        if (w.body.status === 'COMPLETED' || w.body.status === 'FAILED') return w.body;
        await processWithdrawals(t.db, c.net);
        await c.mine(c.confirmations + 1);
      }
      return (await call('GET', `/v1/withdrawals/${id}`, { key: t.test })).body;
    },
    otherToken,
    state: { withdrawalIds: [] },
  };
  return run;
}

/** The rail's family's address rule, and an address of another family (what a person pastes from the wrong wallet). */
export function addressFacts(chain: ChainKey) {
  const rule = addressRuleOf(chain);
  const other = Object.values(ADDRESS_RULES).find((r) => r.family !== familyOf(chain))!;
  return {
    rule,
    other: other.example,
    /** What the server and the forms say of the other family's address: the family it is and what this network takes. */
    refusal: `${other.name} address; ${CHAIN_SPECS[chain].name} takes ${rule.name} addresses`,
  };
}

/** An address in the wire form a person reads on this rail: the family's shape, and its canonical spelling (EIP-55 on EVM, Base58Check on TRON). */
export function expectWireForm(chain: ChainKey, address: string, what: string) {
  expect(address, `${what}: ${addressRuleOf(chain).name}`).toMatch(addressRuleOf(chain).pattern);
  expect(address, `${what}: canonical spelling`).toBe(formatAddress(address));
}

/** An address as a person might type it: the EVM one lower-cased (a wallet's copy button may do that), the TRON one as is. */
export const asTyped = (address: string) => (/^0x/.test(address) ? address.toLowerCase() : address);

/** A money string with at most the token's decimals and two at least, as the API states amounts. */
export function expectTokenAmount(chain: ChainKey, token: Asset, amount: string, expected: string, what: string) {
  expect(amount, what).toMatch(/^\d+\.\d{2,}$/);
  expect(amount.split('.')[1]!.length, `${what}: no more decimals than ${token} has on ${chain}`).toBeLessThanOrEqual(
    CHAIN_SPECS[chain].tokens[token]!.decimals,
  );
  expect(new Decimal(amount).eq(expected), `${what}: ${amount} = ${expected}`).toBe(true);
}

/**
 * Moves an invoice's expiry into the past (what waiting for it would do): a minute, since a watcher expires against
 * the time it has scanned to, which may trail the clock (Solana's: the pass's start less 5 s, lib/payments/watch-solana.ts).
 */
export async function expireInvoice(db: Db, id: string) {
  await db
    .update(invoices)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(invoices.id, id));
}

export const claimOf = (checkoutUrl: string) => new URL(checkoutUrl, 'http://x').searchParams.get('claim')!;
