import { generateKeyPairSigner } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { solanaRpc } from '@/lib/chain/solana/rpc';
import { faultySolanaNode } from '@/lib/testing/solana-payer';
import {
  FINALIZED_DEPTH,
  refusal,
  rowOf,
  startSolanaLane,
  usdcBalanceOf,
  usdcTenant,
  withdrawSolana,
  type SolanaLane,
} from '@/lib/testing/solana-lane';
import { processWithdrawals } from './process-withdrawals';

/**
 * Issue 49, the RPC fault scenarios of the Solana withdrawal lane (solana-withdrawals.test.ts has the rest): a crash
 * between the store and the broadcast, a node dropping every transaction until the blockhash is safely expired, and
 * a node that does not answer. Each pays exactly once, or not at all.
 */
let lane: SolanaLane;
beforeAll(async () => {
  // Its own chain id: the other Solana lane file's withdrawals are never this lane's.
  lane = await startSolanaLane({ chainId: 90_103 });
});
afterAll(async () => {
  await lane?.stop();
});

describe('USDC withdrawals on Solana: faults', () => {
  it('a crash between the store and the broadcast: tracking sends the stored bytes, one transfer arrives', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdrawSolana(t, '7.00', to);
    const crash = new Error('crash after store');
    await expect(processWithdrawals(t.db, lane.net, { beforeBroadcast: () => Promise.reject(crash) })).rejects.toBe(crash);
    const stored = await rowOf(t.db, w.id);
    expect(stored).toMatchObject({ status: 'PROCESSING', broadcastAt: null });
    expect(await lane.usdcOf(to)).toBeNull();
    const done = await lane.settle(t.db, w.id);
    expect(done).toMatchObject({ status: 'COMPLETED', txHash: stored.txHash, sendAttempts: 1, replacedTxHashes: [] });
    expect(await lane.usdcOf(to)).toBe(7_000_000n);
    const ata = await lane.payer.ata(to, lane.node.mints.USDC);
    expect(await lane.rpc.call('getSignaturesForAddress', [ata, { commitment: 'confirmed' }])).toHaveLength(1);
  });

  it('a dropped transaction is re-sent as stored while its blockhash may land, and replaced only once safely expired', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdrawSolana(t, '3.00', to);
    // A node that takes nothing in (as one dropping transactions under load): every send refused.
    const dropping = await faultySolanaNode(lane.node.url, { sendTransaction: { error: { code: -32005, message: 'Node is unhealthy' } } });
    try {
      const lossy = { solanaRpc: solanaRpc(dropping.url) };
      await processWithdrawals(t.db, lane.net, lossy);
      const first = await rowOf(t.db, w.id);
      expect(first.status).toBe('PROCESSING');
      // Past the blockhash's height at `confirmed`, but not yet at `finalized`: still the same signature, never re-signed.
      const current = Number(await lane.rpc.call('getBlockHeight', [{ commitment: 'confirmed' }]));
      lane.node.advance(first.txExpiration! - current + 1);
      await processWithdrawals(t.db, lane.net, lossy);
      const held = await rowOf(t.db, w.id);
      expect(held).toMatchObject({ status: 'PROCESSING', txHash: first.txHash, replacedTxHashes: [] });
      expect(held.pendingReason).toMatch(/re-signed only once the finalized block height is past/);
      // Finalized past lastValidBlockHeight: safely expired, so the same pass signs anew (its send dropped again).
      lane.node.advance(FINALIZED_DEPTH);
      await processWithdrawals(t.db, lane.net, lossy);
      const resigned = await rowOf(t.db, w.id);
      expect(resigned).toMatchObject({ status: 'PROCESSING', sendAttempts: 2, replacedTxHashes: [first.txHash] });
      expect(resigned.txHash).not.toBe(first.txHash);
      // A healthy node: tracking sends the new stored bytes, which land once.
      const done = await lane.settle(t.db, w.id);
      expect(done).toMatchObject({ status: 'COMPLETED', sendAttempts: 2, replacedTxHashes: [first.txHash] });
      expect(done.txHash).not.toBe(first.txHash);
      const [old] = (await lane.rpc.call('getSignatureStatuses', [[first.txHash!], { searchTransactionHistory: true }])).value;
      expect(old).toBeNull();
      expect(await lane.usdcOf(to)).toBe(3_000_000n);
    } finally {
      await dropping.stop();
    }
  });

  it('with the node down nothing moves: creation is a 503 with nothing debited, and the lane signs nothing', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdrawSolana(t, '4.00', to);
    setNetworkOverride('test', { ...lane.net, rpcUrl: 'http://127.0.0.1:1' });
    try {
      expect(await refusal(withdrawSolana(t, '4.00', (await generateKeyPairSigner()).address))).toMatchObject({ code: 'service_unavailable' });
    } finally {
      setNetworkOverride('test', lane.net);
    }
    expect(await usdcBalanceOf(t)).toBe('95.56');
    await processWithdrawals(t.db, lane.net, { solanaRpc: solanaRpc('http://127.0.0.1:1') });
    const row = await rowOf(t.db, w.id);
    expect(row).toMatchObject({ status: 'PENDING', txHash: null, signedTx: null, sendAttempts: 0 });
    expect(row.pendingReason).toMatch(/Chain state could not be read/);
    expect(await lane.usdcOf(to)).toBeNull();
    await t.db.update(withdrawals).set({ nextAttemptAt: new Date() }).where(eq(withdrawals.id, w.id));
    expect((await lane.settle(t.db, w.id)).status).toBe('COMPLETED');
    expect(await lane.usdcOf(to)).toBe(4_000_000n);
  });
});
