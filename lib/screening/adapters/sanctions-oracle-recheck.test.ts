import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers, heldPayments, screeningDecisions, withdrawals } from '@/db/schema';
import { reviewScreeningHold } from '@/lib/payments/review-screening-hold';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startRpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { withOracleChain } from '@/lib/testing/sanctions-oracle/with-oracle-chain';
import { mineAndWatch, payFromCustomer, withdrawOn } from '@/lib/testing/screening-chain';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { balanceOf } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 46 §1–2, the adapters where the rule applies after the first screening: the send lane's screening right before
 * signing and a compliance user's release of a held payment ask the same configured screening as the request and the
 * watcher (the offline list, then the enabled adapters; the freeze list is read by the lane's own chain reads). Here the
 * sanctions oracle stand-in on anvil: listed there since the withdrawal was queued stops it unsigned; an oracle that
 * times out at signing time holds it unsigned (never signs it on a missing answer); a release of a payment whose
 * sender the oracle lists now, or cannot be read, is refused and the payment stays held. Before this, the lane and the
 * release used the offline list only: each of these was signed or credited.
 */
const eth = withOracleChain();
const customer = (): Address => privateKeyToAccount(eth.chain.keys.other).address;
const compliance = {
  user: { id: 'usr_compliance', role: 'compliance' },
  actor: { kind: 'support' as const, id: 'usr_compliance', label: 'c@example.com' },
};

let proxy: Awaited<ReturnType<typeof startRpcFaultProxy>>;
beforeAll(async () => {
  proxy = await startRpcFaultProxy(eth.live.rpcUrl!);
});
afterAll(async () => {
  await proxy?.close();
});
/** Reads of the oracle contract through the proxy hang (a node that stopped answering), the token's reads do not. */
const oracleHangs = (on: boolean) => {
  const oracle = eth.oracle.address.toLowerCase();
  proxy.state.hangWhen = on ? (c) => c.method === 'eth_call' && (c.params?.[0] as { to?: string })?.to?.toLowerCase() === oracle : null;
  if (!on) proxy.cutHanging();
};

async function queuedWithdrawal(to: Address) {
  const t = await createTestTenant();
  await creditAsset(t.db, t.tenant.id, 'USDT', '50');
  await eth.chain.mint(eth.chain.addresses.hot, '1000', eth.chain.tokenOf('USDT'));
  const w = await withdrawOn(t.test, { amount: '10.00', destinationAddress: to });
  expect(w.status, w.text).toBe(201);
  const row = async () => (await t.db.select().from(withdrawals).where(eq(withdrawals.id, w.body.id)))[0]!;
  return { t, id: w.body.id as string, row };
}

describe('the send lane, right before signing (anvil)', () => {
  it('a destination the oracle lists since the withdrawal was queued is stopped unsigned, given back, and recorded', async () => {
    eth.configure();
    const to = freshAddress();
    const { t, id, row } = await queuedWithdrawal(to);
    await eth.oracle.list(to);
    try {
      await processWithdrawals(t.db, eth.net as LaneNetwork);
    } finally {
      await eth.oracle.unlist(to);
    }
    expect(await row()).toMatchObject({ status: 'FAILED', signedTx: null, txHash: null, nonce: null });
    expect((await row()).failureReason).toMatch(/sanctions list/);
    expect(await eth.chain.tokenBalance(to, eth.chain.tokenOf('USDT'))).toBe(0n);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('50.00');
    const decisions = await t.db.select().from(screeningDecisions).where(eq(screeningDecisions.targetId, id));
    expect(decisions).toMatchObject([{ outcome: 'stopped', subject: 'destination', path: 'lane', address: to.toLowerCase() }]);
  });

  it('an oracle that times out at signing time holds the withdrawal unsigned (never sent on a missing answer); answering clean, it is sent', async () => {
    eth.configure(eth.oracle.address, 300);
    await eth.liveRpc(proxy.url);
    const to = freshAddress();
    const { t, row } = await queuedWithdrawal(to);
    oracleHangs(true);
    try {
      await processWithdrawals(t.db, eth.net as LaneNetwork);
      expect(await row()).toMatchObject({ status: 'PENDING', signedTx: null, txHash: null, nonce: null });
      expect((await row()).pendingReason).toMatch(/could not be screened/);
      expect((await balanceOf(t.test, 'USDT')).available).toBe('39.90'); // still debited (10.00 and its 0.10 fee)
    } finally {
      oracleHangs(false);
    }
    // The oracle answers again (clean): the next pass once it is due signs and sends it.
    await processWithdrawals(t.db, eth.net as LaneNetwork, { now: new Date(Date.now() + 60_000) });
    expect((await row()).status).toBe('PROCESSING');
    await eth.chain.mine(3);
    expect(await eth.chain.tokenBalance(to, eth.chain.tokenOf('USDT'))).toBeGreaterThan(0n);
  });
});

describe('a compliance release (anvil)', () => {
  it('a held payment whose sender the oracle now lists, or cannot be read, is not released and stays held; once clean, it is credited once', async () => {
    // Held at detection because the oracle could not be read (RPC down), the usual way such a hold reaches review.
    eth.configure(eth.oracle.address, 500);
    const { t, inv, jobs, detail } = await payFromCustomer(eth, () => eth.liveRpc());
    const heldId = detail.heldPayments[0].id as string;
    expect(detail.heldPayments).toMatchObject([{ mismatch: 'screening', status: 'held' }]);
    const state = async () => ({
      held: (await t.db.select().from(heldPayments).where(eq(heldPayments.id, heldId)))[0]!.status,
      transfers: (await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).length,
    });

    await eth.liveRpc(eth.live.rpcUrl);
    await eth.oracle.list(customer());
    try {
      await expect(reviewScreeningHold(t.db, compliance, heldId, 'release')).rejects.toMatchObject({ status: 409, code: 'invalid_state' });
      expect(await state()).toEqual({ held: 'held', transfers: 0 });
      await eth.liveRpc();
      await expect(reviewScreeningHold(t.db, compliance, heldId, 'release')).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(await state()).toEqual({ held: 'held', transfers: 0 });
    } finally {
      await eth.liveRpc(eth.live.rpcUrl);
      await eth.oracle.unlist(customer());
    }

    await reviewScreeningHold(t.db, compliance, heldId, 'release');
    expect(await state()).toEqual({ held: 'credited', transfers: 1 });
    await mineAndWatch(eth.chain, jobs);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('9.90'); // less the default 1 % fee
    const decisions = await t.db.select().from(screeningDecisions).where(eq(screeningDecisions.targetId, heldId));
    expect(decisions.map((d) => d.outcome).sort()).toEqual(['held', 'released']);
  });
});
