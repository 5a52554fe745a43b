import { erc20Abi, formatUnits, type Address, type Hex } from 'viem';
import { expect } from 'vitest';
import type { Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { getBalance } from '@/lib/ledger/get-balance';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import type { AnvilChain } from './anvil';
import { call } from './app';
import { createTestTenant } from './fixtures';

let seq = 0;

/** An address nobody used yet (a fresh payer). */
export const freshAddress = (): Address => `0x${(BigInt(Date.now()) * 1_000_003n + BigInt(++seq) + 7n).toString(16).padStart(40, '0')}` as Address;

/**
 * Invoices paid on the test chain and settled, for refund tests: `get()`
 * returns the chain and network once withTestChain has started them.
 */
export function settledInvoices(get: () => { chain: AnvilChain; net: Network }) {
  /**
   * A tenant (1 % invoice fee, 1 % withdrawal fee) with one invoice of `expected` paid `paid` on chain and settled
   * (`settle: false`: paid, not yet confirmed), plus `extra` credited otherwise (other sales), so the balance can pay a
   * refund and its fee. `setup` runs on the new tenant before the invoice is paid (e.g. a policy switched on first).
   */
  async function settledInvoice(
    expected: string,
    paid: string,
    opts: {
      expire?: boolean;
      extra?: string;
      settle?: boolean;
      setup?: (t: Awaited<ReturnType<typeof createTestTenant>> & { owner: { tenantId: string; mode: 'test' } }) => Promise<unknown>;
    } = {},
  ) {
    const { chain, net } = get();
    const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    if (opts.setup) await opts.setup({ ...t, owner: { tenantId: t.tenant.id, mode: 'test' } });
    if (opts.extra) {
      await t.db.transaction((tx) =>
        postLedgerEntry(tx, {
          tenantId: t.tenant.id,
          mode: 'test',
          amount: opts.extra!,
          kind: 'test_credit',
          referenceType: 'test',
          referenceId: `refund-${process.pid}-${++seq}`,
          currency: 'USDT',
        }),
      );
    }
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: expected, expiresInMinutes: opts.expire ? 5 : 1440 } });
    expect(inv.status, inv.text).toBe(201);
    // Expiring moves the chain's clock 400 s ahead for the whole file: other invoices get a day, so they stay payable.
    if (opts.expire) {
      await chain.client.request({ method: 'evm_increaseTime' as never, params: [400] as never });
      await chain.mine(1);
      await jobs();
    }
    const res = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: paid } });
    expect(res.status, res.text).toBe(200);
    await chain.client.waitForTransactionReceipt({ hash: res.body.txHash as Hex });
    const settle = async () => {
      for (let i = 0; i < 4; i++) {
        await chain.mine(6);
        await jobs();
      }
    };
    if (opts.settle === false) await jobs();
    else await settle();
    const detail = (await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test })).body;
    // The payer's claim token, from the create response's checkoutUrl only (issue 30 §1).
    const claim = new URL(String(inv.body.checkoutUrl ?? '/'), 'http://x').searchParams.get('claim') ?? undefined;
    return { ...t, invoice: detail, claim, owner: { tenantId: t.tenant.id, mode: 'test' as const }, settle };
  }

  const balance = async (t: { db: any; owner: { tenantId: string; mode: 'test' } }) =>
    (await getBalance(t.db, { ...t.owner, currency: 'USDT' })).toString();

  const onChain = async (to: Address) => {
    const { chain } = get();
    return formatUnits(await chain.client.readContract({ address: chain.token, abi: erc20Abi, functionName: 'balanceOf', args: [to] }), 18);
  };

  /** Runs the hot wallet's sending lane until what is due is sent and confirmed. */
  async function send() {
    const { chain, net } = get();
    for (let i = 0; i < 3; i++) {
      await processWithdrawals((await createTestTenant()).db, net as LaneNetwork);
      await chain.mine(5);
    }
    await processWithdrawals((await createTestTenant()).db, net as LaneNetwork);
  }

  return { settledInvoice, balance, onChain, send };
}
