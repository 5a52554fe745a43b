import { generateKeyPairSigner } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import {
  RENT,
  gasSpendOf,
  refusal,
  rowOf,
  startSolanaLane,
  usdcBalanceOf,
  usdcTenant,
  withdrawSolana,
  type SolanaLane,
} from '@/lib/testing/solana-lane';
import { ledgerOf } from '@/lib/testing/tron-lane-helpers';
import { getMaxWithdrawal } from './get-max-withdrawal';
import { processWithdrawals } from './process-withdrawals';

/**
 * Issue 49: USDC withdrawals on Solana from the hot wallet, the gas wallet paying the fee and, when the destination
 * wallet has no token account yet, its rent, which is the withdrawal's network fee (reserved in full at creation,
 * the part a transfer did not need given back when it completes). The rail is enabled by a test override, and
 * withdrawals are made as the route would make them (the rail matrix makes them through the API).
 * The RPC fault scenarios: solana-withdrawals-faults.test.ts.
 */
let lane: SolanaLane;
beforeAll(async () => {
  lane = await startSolanaLane();
});
afterAll(async () => {
  await lane?.stop();
});

describe('USDC withdrawals on Solana', () => {
  it('to a wallet without a token account: the transfer creates it, the gas wallet pays its rent, and the rent is the network fee', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdrawSolana(t, '10.00', to);
    // Reserved: 1% and the network fee, which covers the rent (0.31 at 150 USD/SOL) under the configured 0.40.
    expect(w).toMatchObject({ chain: 'SOLANA', destinationAddress: to, netAmount: '10.00', feeAmount: '0.50', status: 'PENDING' });
    const [gasBefore, hotBefore] = [await lane.lamportsOf(lane.node.keys.gas.address), await lane.lamportsOf(lane.node.keys.hot.address)];

    await processWithdrawals(t.db, lane.net);
    const sent = await rowOf(t.db, w.id);
    expect(sent.pendingReason).toBeNull();
    expect(sent).toMatchObject({ status: 'PROCESSING', nonce: null, sendAttempts: 1 });
    expect(sent.signedTx).toBeTruthy();
    expect(sent.txExpiration).toBeGreaterThan(0);
    lane.node.advance(1);
    expect(await lane.usdcOf(to)).toBe(10_000_000n);
    // Landed, not finalized: still PROCESSING, nothing sent again.
    await processWithdrawals(t.db, lane.net);
    expect((await rowOf(t.db, w.id)).status).toBe('PROCESSING');

    const done = await lane.settle(t.db, w.id);
    expect(done).toMatchObject({ status: 'COMPLETED', txHash: sent.txHash, pendingReason: null });
    expect(await lane.usdcOf(to)).toBe(10_000_000n);
    // The gas wallet paid the rent and two signatures; the hot wallet no SOL at all.
    expect(gasBefore - (await lane.lamportsOf(lane.node.keys.gas.address))).toBe(RENT + 10_000n);
    expect(await lane.lamportsOf(lane.node.keys.hot.address)).toBe(hotBefore);
    expect((await gasSpendOf(t.db, w.id)).map((s) => s.cost_wei)).toEqual([(RENT + 10_000n).toString()]);
    // Charged 2,049,280 lamports at 150 USD/SOL = 0.31 (rounded up); 0.09 of the 0.40 reserved comes back.
    expect(await ledgerOf(t.db, w.id)).toEqual({
      withdrawal: '-10.000000000000000000',
      withdrawal_fee: '-0.100000000000000000',
      network_fee: '-0.400000000000000000',
      network_fee_refund: '0.090000000000000000',
    });
    expect(await usdcBalanceOf(t)).toBe('89.59');
    console.log(
      `[solana withdrawal] creating the ATA: ${Buffer.from(sent.signedTx!, 'base64').length} bytes on the wire, ${RENT + 10_000n} lamports from the gas wallet`,
    );
  });

  it('to a wallet whose token account exists (given as the wallet or as the account): no rent, the fee is the signatures', async () => {
    const t = await usdcTenant('100');
    const holder = await lane.payer.funded('USDC', 1_000_000n);
    const ata = await lane.payer.ata(holder.address, lane.node.mints.USDC);
    lane.node.advance(1);
    const [a, b] = [await withdrawSolana(t, '5.00', holder.address), await withdrawSolana(t, '5.00', ata)];
    const gasBefore = await lane.lamportsOf(lane.node.keys.gas.address);
    for (const w of [a, b]) expect((await lane.settle(t.db, w.id)).status).toBe('COMPLETED');
    expect(await lane.usdcOf(holder.address)).toBe(11_000_000n);
    expect(gasBefore - (await lane.lamportsOf(lane.node.keys.gas.address))).toBe(20_000n);
    // 10,000 lamports at 150 USD/SOL = 0.0015, charged 0.01: 0.39 back on each.
    for (const w of [a, b]) expect((await ledgerOf(t.db, w.id)).network_fee_refund).toBe('0.390000000000000000');
    // Two like withdrawals (same amount, same account, one blockhash) are two transactions: the memo names each.
    expect((await rowOf(t.db, a.id)).txHash).not.toBe((await rowOf(t.db, b.id)).txHash);
    console.log(`[solana withdrawal] to an existing ATA: ${Buffer.from((await rowOf(t.db, a.id)).signedTx!, 'base64').length} bytes on the wire`);
    expect(await usdcBalanceOf(t)).toBe('89.88');
  });

  it('Max reserves the rent: a Max withdrawal to a new wallet empties the balance and completes', async () => {
    const t = await usdcTenant('20');
    const max = await getMaxWithdrawal(
      t.db,
      { tenantId: t.tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
      { currency: 'USDC', chain: 'SOLANA' },
    );
    // (20 − 0.40) / 1.01 = 19.405… → 19.41; the fee a Max withdrawal is charged is the rest, 0.59.
    expect(max).toMatchObject({ maxAmount: '19.41', estimatedFee: '0.59', networkFee: '0.40', chain: 'SOLANA' });
    const w = await withdrawSolana(t, max.maxAmount, (await generateKeyPairSigner()).address);
    expect(await usdcBalanceOf(t)).toBe('0');
    expect((await lane.settle(t.db, w.id)).status).toBe('COMPLETED');
    expect(await usdcBalanceOf(t)).toBe('0.09');
  });

  it('the reserve covers the rent whatever the configured network fee', async () => {
    const cheap = { ...lane.net, networkFee: '0.05' };
    setNetworkOverride('test', cheap);
    try {
      const t = await usdcTenant('10');
      const max = await getMaxWithdrawal(
        t.db,
        { tenantId: t.tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
        { currency: 'USDC', chain: 'SOLANA' },
      );
      expect(max.networkFee).toBe('0.31');
      const w = await withdrawSolana(t, '1.00', (await generateKeyPairSigner()).address);
      expect(w.feeAmount).toBe('0.32');
    } finally {
      setNetworkOverride('test', lane.net);
    }
  });

  it('refuses a token account that is not its owner’s associated one, another mint’s, a mint, a program, and a frozen account; nothing is debited', async () => {
    const t = await usdcTenant('100');
    const holder = await lane.payer.funded('USDC', 1_000_000n);
    const aux = await lane.auxiliaryTokenAccount(holder);
    const usdtHolder = await lane.payer.funded('USDT', 1_000_000n);
    const frozen = await lane.payer.funded('USDC', 1_000_000n);
    await lane.node.freeze('USDC', await lane.payer.ata(frozen.address, lane.node.mints.USDC));
    lane.node.advance(1);
    const cases: [string, string, RegExp][] = [
      [aux, 'not_associated_token_account', new RegExp(`send to the owner's wallet address ${holder.address}`)],
      [await lane.payer.ata(usdtHolder.address, lane.node.mints.USDT), 'token_account_other_mint', /another token/],
      [lane.node.mints.USDT, 'mint_account', /token mint/],
      [lane.node.mints.USDC, 'destination_token_contract', /token contract/],
      // Our wallets, derived from their ed25519 seeds (not as secp256k1 keys).
      [lane.node.keys.hot.address, 'destination_own_wallet', /own wallets/],
      [lane.node.keys.gas.address, 'destination_own_wallet', /own wallets/],
      [TOKEN_PROGRAM_ADDRESS, 'program_account', /program/],
      [await lane.payer.ata(frozen.address, lane.node.mints.USDC), 'token_account_frozen', /frozen/],
      [frozen.address, 'token_account_frozen', /frozen/],
    ];
    for (const [to, code, sentence] of cases) {
      const got = (await refusal(withdrawSolana(t, '5.00', to))) as { code: string; message: string };
      expect(got, to).toMatchObject({ code });
      expect(got.message).toMatch(sentence);
    }
    expect(await usdcBalanceOf(t)).toBe('100');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('a destination frozen after acceptance: the lane fails the withdrawal before signing and the money comes back', async () => {
    const t = await usdcTenant('100');
    const holder = await lane.payer.funded('USDC', 1_000_000n);
    const w = await withdrawSolana(t, '5.00', holder.address);
    await lane.node.freeze('USDC', await lane.payer.ata(holder.address, lane.node.mints.USDC));
    lane.node.advance(1);
    const done = await lane.settle(t.db, w.id);
    expect(done).toMatchObject({ status: 'FAILED', txHash: null });
    expect(done.failureReason).toMatch(/frozen by the token issuer/);
    expect(await usdcBalanceOf(t)).toBe('100');
    expect(await lane.usdcOf(holder.address)).toBe(1_000_000n);
  });
});
