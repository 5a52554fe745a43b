import { eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { refundClaims, withdrawals } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { CHAIN_SPECS, EVM_CHAINS, freezeListOf, type Asset, type ChainKey } from '@/lib/config/rails';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { redeemRefundClaim } from '@/lib/refunds/claims/redeem-refund-claim';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { balanceOf, createInvoice, invoiceDetail, sendFromCustomer, sendToken } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Issue 42 §2, freeze lists on every rail. Tether freezes USDT holders on Ethereum (`isBlackListed`) and on its
 * upgradeable deployments (USDT0 on Arbitrum and Polygon, `isBlocked`); Circle freezes USDC holders on every network
 * (`isBlacklisted`). Before, only TRON's list was read: a withdrawal to a frozen holder on any EVM network was
 * accepted, debited and sent, and the tokens were lost. Each dev-stack EVM chain here runs the stand-in with its
 * real counterpart's list (lib/testing/tokens/TestStablecoins.sol, chosen by lib/config/rails.ts).
 */
const chains = new Map<ChainKey, { chain: AnvilChain; net: Network }>();
for (const key of EVM_CHAINS) {
  const tokens = (Object.entries(CHAIN_SPECS[key].tokens) as [Asset, { decimals: number }][]).map(([asset, t]) => ({ asset, decimals: t.decimals }));
  withTestChain(
    (c) => {
      const net = c.network('test', { confirmations: 2 });
      setNetworkOverride('test', net, key);
      chains.set(key, { chain: c, net });
    },
    { chain: key, tokens },
  );
}
const rails = EVM_CHAINS.flatMap((chain) => (Object.keys(CHAIN_SPECS[chain].tokens) as Asset[]).map((token) => ({ chain, token })));
const listed = rails.filter((r) => freezeListOf(r.chain, r.token));

const withdraw = (key: string, body: Record<string, string>) => call('POST', '/v1/withdrawals', { key, body });
const apiError = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected an ApiError');
};

describe('the rails table states every token’s freeze list', () => {
  it('Tether’s and Circle’s lists where their contracts have one; none for the Binance-Peg tokens on BSC', () => {
    expect(Object.fromEntries(rails.map((r) => [`${r.chain}:${r.token}`, freezeListOf(r.chain, r.token)]))).toEqual({
      'BSC:USDT': null,
      'BSC:USDC': null,
      'ETHEREUM:USDT': 'isBlackListed',
      'ETHEREUM:USDC': 'isBlacklisted',
      'POLYGON:USDT': 'isBlocked',
      'POLYGON:USDC': 'isBlacklisted',
      'ARBITRUM:USDT': 'isBlocked',
      'ARBITRUM:USDC': 'isBlacklisted',
      'BASE:USDC': 'isBlacklisted',
    });
    expect(freezeListOf('TRON', 'USDT')).toBe('isBlackListed');
  });
});

describe('a frozen holder is refused on every EVM rail that has a list', () => {
  it.each(listed)(
    '$chain $token: a withdrawal to a frozen address is 400 destination_blacklisted, nothing written',
    async ({ chain: key, token }) => {
      const { chain } = chains.get(key)!;
      const t = await createTestTenant();
      await creditAsset(t.db, t.tenant.id, token, '50');
      const frozen = freshAddress();
      await chain.setFrozen(frozen, token);
      const res = await withdraw(t.test, { amount: '10.00', destinationAddress: frozen, chain: key, token });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('destination_blacklisted');
      expect(res.body.message).toBe(
        `destinationAddress: is on the ${token} contract's blacklist on ${CHAIN_SPECS[key].name}: tokens sent there are frozen and lost`,
      );
      expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
      expect((await balanceOf(t.test, token)).available).toBe('50.00');
      // Another address (and the same one once thawed) is paid as before: the read answers, it does not refuse everything.
      expect((await withdraw(t.test, { amount: '10.00', destinationAddress: freshAddress(), chain: key, token })).status).toBe(201);
      await chain.setFrozen(frozen, token, false);
      expect((await withdraw(t.test, { amount: '10.00', destinationAddress: frozen, chain: key, token })).status).toBe(201);
    },
  );
});

describe('on Ethereum, every path that pays an address', () => {
  const eth = () => chains.get('ETHEREUM')!;

  /** A tenant with a paid, settled 10.00 USDT invoice on Ethereum (the hot wallet holds its money). */
  async function paidInvoice() {
    const { chain, net } = eth();
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const inv = await createInvoice(t.test, { amount: '10.00', chain: 'ETHEREUM', token: 'USDT' });
    await sendToken(chain, 'USDT', inv.depositAddress, '10');
    for (let i = 0; i < 4; i++) {
      await chain.mine(3);
      await jobs();
    }
    expect((await invoiceDetail(t.test, inv.id)).status).toBe('PAID_OUT');
    return { ...t, inv, jobs };
  }

  it('a refund and a claim link to a frozen address are refused; nothing is debited or recorded', async () => {
    const { chain } = eth();
    const t = await paidInvoice();
    const frozen = freshAddress();
    await chain.setFrozen(frozen, 'USDT');
    const before = (await balanceOf(t.test, 'USDT')).available;

    const refund = await call('POST', `/v1/invoices/${t.inv.id}/refunds`, { key: t.test, body: { destinationAddress: frozen, amount: '1.00' } });
    expect([refund.status, refund.body.code]).toEqual([400, 'destination_blacklisted']);

    const link = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: t.inv.id, amount: '1.00' } });
    expect(link.status, link.text).toBe(201);
    const token = String(link.body.url).split('/refund-claim/')[1]!;
    const redeemed = await apiError(redeemRefundClaim(t.db, token, { destinationAddress: frozen }, { address: null }));
    expect(redeemed).toMatchObject({ status: 400, code: 'destination_blacklisted' });
    // The link stays open for a good address; nothing was debited.
    const [claim] = await t.db.select().from(refundClaims).where(eq(refundClaims.id, link.body.id));
    expect(claim).toMatchObject({ status: 'OPEN', usedAt: null });
    expect((await balanceOf(t.test, 'USDT')).available).toBe(before);
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('a held payment whose sender was frozen since is not sent back (409 sender_not_refundable), it stays held', async () => {
    const { chain } = eth();
    const t = await paidInvoice();
    const sender = await sendFromCustomer(chain, 'USDC', t.inv.depositAddress, '30');
    for (let i = 0; i < 2; i++) {
      await chain.mine(3);
      await t.jobs();
    }
    const held = (await invoiceDetail(t.test, t.inv.id)).heldPayments[0];
    expect(held).toMatchObject({ token: 'USDC', status: 'held' });
    await chain.setFrozen(EVM_ADDRESS_CODEC.parse(sender), 'USDC');
    const res = await call('POST', `/v1/invoices/${t.inv.id}/held-payments/${held.id}/refund`, { key: t.test, body: {} });
    expect([res.status, res.body.code]).toEqual([409, 'sender_not_refundable']);
    expect(res.body.message).toContain("is on the USDC contract's blacklist on Ethereum");
    expect((await invoiceDetail(t.test, t.inv.id)).heldPayments[0]).toMatchObject({ status: 'held', withdrawalId: null });
  });

  it('a read that fails is a 503 and nothing is written (never "not frozen")', async () => {
    const { net } = eth();
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDC', '50');
    setNetworkOverride('test', { ...net, rpcUrl: 'http://127.0.0.1:9' }, 'ETHEREUM');
    try {
      const res = await withdraw(t.test, { amount: '10.00', destinationAddress: freshAddress(), chain: 'ETHEREUM', token: 'USDC' });
      expect(res.status, res.text).toBe(503);
      expect(res.body).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/blacklist on Ethereum; nothing was changed/) });
    } finally {
      setNetworkOverride('test', net, 'ETHEREUM');
    }
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
    expect((await balanceOf(t.test, 'USDC')).available).toBe('50.00');
  });

  it('a withdrawal accepted before its destination was frozen stops before signing and is given back', async () => {
    const { chain, net } = eth();
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDT', '50');
    // The hot wallet can pay, and Tether's contract lets a frozen holder receive: only the lane's own read stops it.
    await chain.mint(chain.addresses.hot, '1000', chain.tokenOf('USDT'));
    const to = freshAddress();
    const w = await withdraw(t.test, { amount: '10.00', destinationAddress: to, chain: 'ETHEREUM', token: 'USDT' });
    expect(w.status, w.text).toBe(201);
    await chain.setFrozen(to, 'USDT');
    await processWithdrawals(t.db, net as LaneNetwork);
    const [row] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, w.body.id));
    expect(row).toMatchObject({ status: 'FAILED', signedTx: null, txHash: null, nonce: null });
    expect(row!.failureReason).toBe(`The destination ${getAddress(to)} is on the USDT contract's blacklist: tokens sent there would be frozen.`);
    expect(await chain.tokenBalance(to, chain.tokenOf('USDT'))).toBe(0n);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('50.00');
  });
});
