import { and, eq, sql } from 'drizzle-orm';
import { rowsOf } from '@/lib/db';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, withdrawals } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { freshTronAddress, ledgerOf, usdtOf } from '@/lib/testing/tron-lane-helpers';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { getBalance } from '@/lib/ledger/get-balance';
import { setNetworkOverride } from '@/lib/chain/network';
import { lookupTronTx } from '@/lib/chain/tron/broadcast';
import { Decimal } from '@/lib/money';
import type { LaneNetwork } from './lane-helpers';
import { processWithdrawals } from './process-withdrawals';

let rail: TronRail;
let net: LaneNetwork;
beforeAll(async () => {
  rail = await startTronRail();
  net = rail.net;
  await rail.node.mintUsdt(rail.node.keys.hot.address, 1_000_000_000n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const TRON = { chain: 'TRON', token: 'USDT' } as const;
const rowOf = async (db: Awaited<ReturnType<typeof fundedTenant>>['db'], id: string) =>
  (await db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;

describe('USDT withdrawals on TRON', () => {
  it('arrive exactly once at a T… address: the destination holds the net amount, the ledger took amount + fee, COMPLETED with its events', async () => {
    const t = await fundedTenant('100');
    const to = freshTronAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '10.00', destinationAddress: to, ...TRON } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ chain: 'TRON', destinationAddress: to, netAmount: '10.00', feeAmount: '1.10' });
    await processWithdrawals(t.db, net);
    const sent = await rowOf(t.db, res.body.id);
    expect(sent).toMatchObject({ status: 'PROCESSING', nonce: null, sendAttempts: 1 });
    expect(sent.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.txExpiration! - Date.now()).toBeGreaterThan(-600_000);
    expect(sent.refBlockNumber).toBeGreaterThan(0);
    expect(await usdtOf(rail, to)).toBe(10_000_000n);
    // Mined, not solidified: still PROCESSING, nothing sent again.
    await processWithdrawals(t.db, net);
    expect((await rowOf(t.db, res.body.id)).status).toBe('PROCESSING');
    await rail.node.mine(19);
    await processWithdrawals(t.db, net);
    const done = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(done.body).toMatchObject({ status: 'COMPLETED', txHash: sent.txHash, pendingReason: null });
    await processWithdrawals(t.db, net);
    expect(await usdtOf(rail, to)).toBe(10_000_000n);
    expect(await ledgerOf(t.db, res.body.id)).toEqual({
      withdrawal: '-10.000000000000000000',
      withdrawal_fee: '-0.100000000000000000',
      network_fee: '-1.000000000000000000',
    });
    expect(new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed(2)).toBe('88.90');
    // The TRX the hot wallet burned (no staked energy here): recorded once, in sun (TRX's own 6 decimals), as the
    // transaction's info reports it, not converted to wei (issue 43 §2).
    const [spend] = rowsOf<{ gas_used: string; cost_wei: string; tx_hash: string }>(
      await t.db.execute(sql`select gas_used::text, cost_wei::text, tx_hash from gas_spend where reference_id = ${res.body.id}`),
    );
    const found = await lookupTronTx(rail.client, sent.txHash!);
    if (found.state === 'unknown') throw new Error('the withdrawal transaction is unknown');
    expect(BigInt(spend!.cost_wei)).toBe(found.info.fee);
    expect(Number(spend!.gas_used)).toBe(found.info.energyTotal);
    console.log(`[tron withdrawal] to a new holder: ${Number(spend!.cost_wei) / 1e6} TRX burned (energy + bandwidth)`);
    const types = (
      await t.db
        .select()
        .from(events)
        .where(and(eq(events.tenantId, t.tenant.id), eq(events.subjectId, res.body.id)))
    ).map((e) => e.type);
    expect(types.sort()).toEqual(['withdrawal.completed', 'withdrawal.created']);
  });

  it('refuses a destination on USDT’s blacklist at creation (400 destination_blacklisted); nothing is debited', async () => {
    const t = await fundedTenant('50');
    const evil = freshTronAddress();
    await rail.node.addBlackList(evil);
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: evil, ...TRON } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('destination_blacklisted');
    expect(res.body.message).toMatch(/blacklist/i);
    expect(new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed(2)).toBe('50.00');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('a blacklist read that fails is a 503 service_unavailable; nothing is written or debited', async () => {
    const t = await fundedTenant('50');
    setNetworkOverride('test', { ...rail.net, rpcUrl: 'http://127.0.0.1:9' });
    let res;
    try {
      res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: freshTronAddress(), ...TRON } });
    } finally {
      setNetworkOverride('test', rail.net);
    }
    expect(res.status, res.text).toBe(503);
    expect(res.body).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/blacklist.*nothing was changed/) });
    expect(new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed(2)).toBe('50.00');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('fails a withdrawal whose destination was blacklisted after creation, before signing, and gives the money back', async () => {
    const t = await fundedTenant('50');
    const to = freshTronAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: to, ...TRON } });
    expect(res.status, res.text).toBe(201);
    await rail.node.addBlackList(to);
    await processWithdrawals(t.db, net);
    const row = await rowOf(t.db, res.body.id);
    expect(row).toMatchObject({ status: 'FAILED', txHash: null, sendAttempts: 0 });
    expect(row.failureReason).toMatch(/blacklist/i);
    expect(await usdtOf(rail, to)).toBe(0n);
    expect(new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed(2)).toBe('50.00');
  });

  /** A lane whose hot wallet is a new account holding `usdt` base units and `sun` TRX. */
  async function otherHotWallet(usdt: bigint, sun: number) {
    const acc = utils.accounts.generateAccount();
    await rail.node.mintUsdt(acc.address.base58, usdt);
    if (sun > 0) await rail.node.sendTrx(acc.address.base58, sun);
    return { acc, lane: { ...rail.net, hotWalletKey: `0x${acc.privateKey}` as const } };
  }

  it('waits, saying so, while the hot wallet lacks energy or TRX; sends once it has them', async () => {
    const { acc, lane } = await otherHotWallet(50_000_000n, 2_000_000);
    const t = await fundedTenant('50');
    const to = freshTronAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: to, ...TRON } });
    await processWithdrawals(t.db, lane, { retryDelayMs: 0 });
    const waiting = await rowOf(t.db, res.body.id);
    expect(waiting).toMatchObject({ status: 'PENDING', sendAttempts: 0 });
    expect(waiting.pendingReason).toMatch(
      /lacks energy or TRX: the transfer needs \d+ energy \(0 staked left\) and [\d.]+ TRX to burn, it holds 2 TRX/,
    );
    await rail.node.sendTrx(acc.address.base58, 20_000_000);
    await processWithdrawals(t.db, lane, { retryDelayMs: 0 });
    await rail.node.mine(19);
    await processWithdrawals(t.db, lane);
    expect(await rowOf(t.db, res.body.id)).toMatchObject({ status: 'COMPLETED', sendAttempts: 1 });
    expect(await usdtOf(rail, to)).toBe(5_000_000n);
  });

  it('fails a withdrawal whose transfer would revert (the answer of the node holding the USDT) and gives the money back', async () => {
    const { acc, lane } = await otherHotWallet(50_000_000n, 50_000_000);
    // Tether refuses transfers from a blacklisted sender: the estimate reverts.
    await rail.node.addBlackList(acc.address.base58);
    const t = await fundedTenant('50');
    const to = freshTronAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: to, ...TRON } });
    await processWithdrawals(t.db, lane, { retryDelayMs: 0 });
    const row = await rowOf(t.db, res.body.id);
    expect(row).toMatchObject({ status: 'FAILED', txHash: null, sendAttempts: 0 });
    expect(row.failureReason).toMatch(/would revert/);
    expect(new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed(2)).toBe('50.00');
  });
});
