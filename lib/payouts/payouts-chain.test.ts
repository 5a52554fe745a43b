import { and, eq } from 'drizzle-orm';
import { erc20Abi, parseUnits, type Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { ledgerSums, withTwoRails, type TwoRails } from '@/lib/testing/two-rails';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 47: a batch across two rails (BSC USDT at 18 decimals, Ethereum USDT at 6) is paid by the rails' own
 * sending lanes, each recipient exactly once on its chain, and the payout ends with one event per item and one
 * payout.completed. Extra lane passes after the end send nothing more.
 */
let rails: TwoRails;
withTwoRails((r) => {
  rails = r;
  setNetworkOverride('test', r.ethNet, 'ETHEREUM');
});
beforeAll(async () => {
  await rails.bsc.mint(rails.bsc.addresses.hot, '1000');
  await rails.eth.mint(rails.eth.addresses.hot, '1000', rails.eth.tokenOf('USDT'));
});

/** Every USDT Transfer to `to` on `chain`, in base units. */
async function received(chain: AnvilChain, to: Address) {
  const logs = await chain.client.getContractEvents({
    address: chain.tokenOf('USDT'),
    abi: erc20Abi,
    eventName: 'Transfer',
    args: { to },
    fromBlock: 0n,
  });
  return logs.map((l) => l.args.value!);
}

/** Both lanes, one pass each, then blocks for their confirmations. */
async function lanes(db: Parameters<typeof processWithdrawals>[0]) {
  await processWithdrawals(db, rails.bscNet as LaneNetwork);
  await processWithdrawals(db, rails.ethNet as LaneNetwork);
  await rails.bsc.mine(13);
  await rails.eth.mine(13);
}

describe('a payout across two rails', () => {
  it('pays each recipient exactly once on its chain and completes with its events', async () => {
    const t = await fundedTenant('200');
    const items = [
      { chain: 'BSC', amount: '10.00' },
      { chain: 'ETHEREUM', amount: '12.00' },
      { chain: 'BSC', amount: '3.25' },
      { chain: 'ETHEREUM', amount: '7.50' },
    ].map((x, i) => ({ ...x, token: 'USDT', reference: `two-rails-${process.pid}-${Date.now()}-${i}`, destinationAddress: freshAddress() }));
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as string;

    for (let i = 0; i < 8 && (await call('GET', `/v1/payouts/${id}`, { key: t.test })).body.status !== 'COMPLETED'; i++) await lanes(t.db);
    const done = await call('GET', `/v1/payouts/${id}`, { key: t.test });
    expect(done.body, JSON.stringify(done.body)).toMatchObject({ status: 'COMPLETED', counts: { pending: 0, completed: 4, failed: 0 } });
    expect(done.body.completedAt).not.toBeNull();
    // More passes after the end: nothing is sent again.
    await lanes(t.db);
    await lanes(t.db);

    for (const [i, x] of items.entries()) {
      const chain = x.chain === 'BSC' ? rails.bsc : rails.eth;
      const decimals = x.chain === 'BSC' ? 18 : 6;
      expect(await received(chain, x.destinationAddress), `item ${i}`).toEqual([parseUnits(x.amount, decimals)]);
      // Nothing on the other chain.
      expect(await received(x.chain === 'BSC' ? rails.eth : rails.bsc, x.destinationAddress)).toEqual([]);
      expect(done.body.items[i]).toMatchObject({
        status: 'COMPLETED',
        withdrawalStatus: 'COMPLETED',
        chain: x.chain,
        txHash: expect.stringMatching(/^0x/),
      });
    }

    const payoutEvents = await t.db
      .select({ type: events.type, data: events.data })
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.subjectId, id)));
    const types = payoutEvents.map((e) => e.type).sort();
    expect(types).toEqual(['payout.completed', ...Array(4).fill('payout.item.completed')]);
    expect(payoutEvents.find((e) => e.type === 'payout.completed')!.data).toMatchObject({
      id,
      status: 'COMPLETED',
      itemCount: 4,
      completed: 4,
      failed: 0,
    });
    for (const s of await ledgerSums(t.db, t.tenant.id)) expect(s.ledger, s.currency).toBe(s.balance);
  });
});
