import { createServer, type Server } from 'node:http';
import { desc, eq, isNull } from 'drizzle-orm';
import { createWalletClient, erc20Abi, http, parseUnits, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleAlerts, operatorEvents, solvencyLines, withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { getDb } from '@/lib/db';
import { updateWrongNetworkPolicy } from '@/lib/tenants/update-wrong-network-policy';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createInvoice, invoiceDetail, railsTenant, sendFromCustomer, withTwoRails, type TwoRails } from '@/lib/testing/two-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { latestSolvency } from './latest-run';
import { runSolvency, SolvencyReadError } from './run-solvency';

/*
 * Solvency on two local chains (test mode's BSC and Ethereum, USDT and USDC each): what the chain holds
 * against what the ledger owes, per network and token, at a stated block. Each file's chains have chain
 * ids of their own, so other files' money (same database) is never counted on these lines.
 */
let rails: TwoRails;
let bsc: AnvilChain;
let eth: AnvilChain;
withTwoRails((r) => {
  rails = r;
  ({ bsc, eth } = r);
});

/** Runs the job and returns the latest run's token lines by `CHAIN:TOKEN` (test mode) and the gas lines. */
async function solvency() {
  const db = await getDb();
  const result = await runSolvency(db, { modes: ['test'] });
  const view = await latestSolvency(db);
  expect(view.run!.id).toBe(result.runId);
  const token = Object.fromEntries(view.lines.filter((l) => l.kind === 'token' && l.mode === 'test').map((l) => [`${l.chain}:${l.asset}`, l]));
  const gas = Object.fromEntries(view.lines.filter((l) => l.kind === 'gas' && l.mode === 'test').map((l) => [l.chain, l]));
  return { result, view, token, gas };
}

const diffs = (token: Record<string, { difference: string | null; status: string }>) =>
  Object.fromEntries(Object.entries(token).map(([k, l]) => [k, `${l.status} ${l.difference}`]));

/** Moves tokens out of (or back into) a hot wallet with its key, without the gateway knowing. */
async function moveFromHot(chain: AnvilChain, asset: 'USDT' | 'USDC', to: Address, amount: string) {
  const t = chain.tokens.find((x) => x.asset === asset)!;
  const account = privateKeyToAccount(chain.keys.hot);
  const wallet = createWalletClient({ chain: chain.client.chain, account, transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({
    address: t.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, t.decimals)],
  });
  await chain.client.waitForTransactionReceipt({ hash });
}

const settle = async (jobs: () => Promise<void>, chain: AnvilChain) => {
  for (let i = 0; i < 4; i++) {
    await chain.mine(6);
    await jobs();
  }
};

describe('solvency', () => {
  it('counts a held payment where it sits, reports tokens taken from a hot wallet as the exact shortfall on that network only, and never a withdrawal in flight', async () => {
    const t = await railsTenant(rails);
    const db = t.db;
    // Paid 10.00 on BSC (1 % fee: 9.90 credited, swept to BSC's hot wallet).
    const inv = await createInvoice(t.test, { amount: '10.00' });
    const pay = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '10.00' } });
    expect(pay.status, pay.text).toBe(200);
    await settle(t.jobs, bsc);
    expect((await invoiceDetail(t.test, inv.id)).status).toBe('PAID_OUT');
    // 4.00 USDT on Ethereum to a BSC invoice under the hold policy: held on its deposit address on Ethereum.
    await updateWrongNetworkPolicy(
      db,
      { tenantId: t.tenant.id, mode: 'test' },
      { kind: 'user', id: t.tenant.id, label: 'o@test' },
      { wrongNetworkPolicy: 'hold' },
    );
    const inv2 = await createInvoice(t.test, { amount: '20.00' });
    await sendFromCustomer(eth, 'USDT', inv2.depositAddress, '4');
    await eth.mine(5);
    await t.jobs();
    expect((await invoiceDetail(t.test, inv2.id)).heldPayments).toMatchObject([{ chain: 'ETHEREUM', status: 'held', amount: '4.00' }]);

    const base = await solvency();
    expect(base.result.status).toBe('ok');
    expect(diffs(base.token)).toEqual({ 'BSC:USDT': 'ok 0', 'BSC:USDC': 'ok 0', 'ETHEREUM:USDT': 'ok 0', 'ETHEREUM:USDC': 'ok 0' });
    expect(base.token['BSC:USDT']).toMatchObject({
      held: '9.9',
      owed: '9.9',
      owedParts: { balances: '9.9', withdrawalsInFlight: '0', heldPayments: '0' },
    });
    // The held payment counts on Ethereum, where it is: owed there, and its deposit address is part of "held".
    const ethUsdt = base.token['ETHEREUM:USDT']!;
    expect(ethUsdt).toMatchObject({ held: '4', owed: '4', owedParts: { balances: '0', heldPayments: '4' } });
    expect(ethUsdt.holdings).toContainEqual({ address: inv2.depositAddress.toLowerCase(), role: 'deposit', amount: '4' });
    expect(ethUsdt.blockNumber).toBe(Number(await eth.client.getBlockNumber()));
    expect(base.gas.BSC).toMatchObject({ kind: 'gas', status: 'ok', asset: 'BNB' });

    // 2.50 taken out of BSC's hot wallet with its key, behind the gateway's back.
    const thief = privateKeyToAccount(bsc.keys.other).address;
    await moveFromHot(bsc, 'USDT', thief, '2.5');
    const short = await solvency();
    expect(short.result.status).toBe('shortfall');
    expect(diffs(short.token)).toEqual({ 'BSC:USDT': 'shortfall -2.5', 'BSC:USDC': 'ok 0', 'ETHEREUM:USDT': 'ok 0', 'ETHEREUM:USDC': 'ok 0' });
    // An operator event and a console alert, written with the run; none for the other lines.
    const alerts = await db.select().from(consoleAlerts).where(isNull(consoleAlerts.resolvedAt));
    expect(alerts.filter((a) => a.subject.startsWith('test:'))).toMatchObject([
      { kind: 'solvency_shortfall', subject: 'test:BSC:USDT', data: { difference: '-2.5', runId: short.result.runId } },
    ]);
    const [event] = await db.select().from(operatorEvents).orderBy(desc(operatorEvents.createdAt)).limit(1);
    expect(event).toMatchObject({ type: 'solvency.shortfall', subject: 'test:BSC:USDT', data: { difference: '-2.5', held: '7.4', owed: '9.9' } });
    // The same shortfall on the next run: the alert stays open, no second event.
    await solvency();
    expect((await db.select().from(operatorEvents).where(eq(operatorEvents.subject, 'test:BSC:USDT'))).length).toBe(1);

    // Put back: the alert resolves with a recovered event.
    await bsc.mint(bsc.addresses.hot, '2.5', bsc.tokenOf('USDT'));
    const back = await solvency();
    expect(diffs(back.token)['BSC:USDT']).toBe('ok 0');
    expect((await db.select().from(consoleAlerts).where(eq(consoleAlerts.subject, 'test:BSC:USDT')))[0]!.resolvedAt).not.toBeNull();
    const [recovered] = await db.select().from(operatorEvents).orderBy(desc(operatorEvents.createdAt)).limit(1);
    expect(recovered).toMatchObject({ type: 'solvency.recovered', subject: 'test:BSC:USDT' });

    // A withdrawal of 5.00 (+0.05 fee, kept in the hot wallet): debited, waiting to be sent.
    const wd = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: thief } });
    expect(wd.status, wd.text).toBe(201);
    const waiting = await solvency();
    expect(waiting.token['BSC:USDT']).toMatchObject({ status: 'ok', difference: '0.05', owedParts: { balances: '4.85', withdrawalsInFlight: '5' } });
    // Broadcast but not mined: still in the hot wallet, still owed.
    await bsc.client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    try {
      await processWithdrawals(db, rails.bscNet as LaneNetwork);
      const [sent] = await db.select().from(withdrawals).where(eq(withdrawals.id, wd.body.id));
      expect(sent!.status).toBe('PROCESSING');
      const pending = await solvency();
      expect(pending.token['BSC:USDT']).toMatchObject({ status: 'ok', difference: '0.05', held: '9.9' });
      // Mined, not yet confirmed for the gateway (PROCESSING): gone from the wallet and no longer owed.
      await bsc.mine(1);
      const mined = await solvency();
      expect(mined.token['BSC:USDT']).toMatchObject({ status: 'ok', difference: '0.05', held: '4.9', owedParts: { withdrawalsInFlight: '0' } });
      expect((await db.select().from(withdrawals).where(eq(withdrawals.id, wd.body.id)))[0]!.status).toBe('PROCESSING');
    } finally {
      await bsc.client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
    }
    await bsc.mine(6);
    await processWithdrawals(db, rails.bscNet as LaneNetwork);
    expect((await db.select().from(withdrawals).where(eq(withdrawals.id, wd.body.id)))[0]!.status).toBe('COMPLETED');
    const done = await solvency();
    expect(diffs(done.token)).toEqual({ 'BSC:USDT': 'ok 0.05', 'BSC:USDC': 'ok 0', 'ETHEREUM:USDT': 'ok 0', 'ETHEREUM:USDC': 'ok 0' });
  });

  describe('a read that fails or hangs makes the run an error, never a zero', () => {
    let hanging: Server | undefined;
    afterAll(() => hanging?.close());

    it.each(['refused', 'hanging'] as const)('%s: the network is an error line, the others are still read', async (fault) => {
      let rpcUrl = 'http://127.0.0.1:1';
      if (fault === 'hanging') {
        hanging = createServer(() => {}); // accepts, never answers
        await new Promise<void>((r) => hanging!.listen(0, '127.0.0.1', () => r()));
        rpcUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}`;
      }
      setNetworkOverride('test', { ...rails.ethNet, rpcUrl }, 'ETHEREUM');
      try {
        const db = await getDb();
        const err = await runSolvency(db, { modes: ['test'], timeoutMs: 500 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SolvencyReadError);
        const view = await latestSolvency(db);
        expect(view.run).toMatchObject({ id: (err as SolvencyReadError).runId, status: 'error' });
        const lines = view.lines.filter((l) => l.mode === 'test');
        for (const l of lines.filter((x) => x.chain === 'ETHEREUM')) {
          expect(l).toMatchObject({ status: 'error', held: null, difference: null, blockNumber: null });
          expect(l.error).toBeTruthy();
          expect(l.error).not.toContain(rpcUrl);
        }
        expect(lines.filter((x) => x.chain === 'BSC' && x.kind === 'token').every((l) => l.status !== 'error' && l.held !== null)).toBe(true);
        const stored = await db.select().from(solvencyLines).where(eq(solvencyLines.runId, view.run!.id));
        expect(stored.some((l) => l.chain === 'ETHEREUM' && l.held === '0')).toBe(false);
      } finally {
        setNetworkOverride('test', rails.ethNet, 'ETHEREUM');
      }
    });
  });
});
