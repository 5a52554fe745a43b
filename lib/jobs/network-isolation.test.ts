import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setNetworkOverride, type EvmNetwork, type ReadyNetwork } from '@/lib/chain/network';
import { sleep } from '@/lib/async/sleep';
import { createSettlements } from '@/lib/settlements/create-settlements';
import { watchChain } from '@/lib/payments/watch-chain';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { createInvoice, invoiceDetail, railsTenant, sendToken, withTwoRails, type TwoRails } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import type { Db } from '@/lib/db';
import { WITHDRAWAL_LANE_LEASE } from '@/lib/withdrawals/lane-lease';
import { SCHEDULED_JOBS } from './registry';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * One network's node stops answering (every call hangs until it times out) while another network is healthy:
 * the healthy network's withdrawals and payouts go on as usual. The local worker's jobs once passed over the
 * networks in turn, so one hung node held every other network's money for as long as its calls took to time out
 * (15 s each, retried: minutes for a batch of settlements).
 */
let rails: TwoRails;
withTwoRails((r) => void (rails = r));
let proxy: RpcFaultProxy;
/** Ethereum as the jobs see it: through the fault proxy. */
let ethNet: EvmNetwork;
beforeAll(async () => {
  proxy = await startRpcFaultProxy(rails.eth.rpcUrl);
  // Longer than any wait below: a hung call never ends on its own during a test (each test cuts them after).
  proxy.state.hangMs = 60_000;
  ethNet = { ...rails.ethNet, rpcUrl: proxy.url };
  setNetworkOverride('test', ethNet);
  await rails.bsc.mint(rails.bsc.addresses.hot, '1000');
  await rails.eth.mint(rails.eth.addresses.hot, '1000', rails.eth.tokenOf('USDT'));
});
afterAll(async () => {
  setNetworkOverride('test', rails.ethNet);
  await proxy?.close();
});

const job = (name: string) => SCHEDULED_JOBS.find((j) => j.name === name)!;
let seq = 0;
const freshAddress = () => privateKeyToAccount(`0x${(BigInt(Date.now()) * 1_000_003n + BigInt(++seq) + 7n).toString(16).padStart(64, '0')}`).address;

/** Starts a job's run as the worker would; `stop` aborts it and waits for it to end. */
function startJob(db: Db, name: string, runForMs: number) {
  const ac = new AbortController();
  const run = job(name)
    .run(db, ac.signal, { runForMs })
    .catch(() => undefined);
  return {
    stop: async () => {
      ac.abort();
      await run;
    },
  };
}

async function until(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

async function withdraw(key: string, body: Record<string, string>) {
  const res = await call('POST', '/v1/withdrawals', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

describe('one network whose node hangs', () => {
  it("does not hold up another network's withdrawals; its own are sent once its node answers again, each once", async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await creditAsset(t.db, t.tenant.id, 'USDT', '100');
    const ethDest = freshAddress();
    const bscDest = freshAddress();
    await withdraw(t.test, { amount: '5.00', destinationAddress: ethDest, chain: 'ETHEREUM' });

    proxy.state.hangWhen = () => true;
    const lane = startJob(t.db, WITHDRAWAL_LANE_LEASE, 20_000);
    const bscToken = rails.bsc.tokenOf('USDT');
    try {
      expect(await until(async () => proxy.hangingCount() > 0, 15_000), "the lane is waiting on Ethereum's node").toBe(true);
      await withdraw(t.test, { amount: '5.00', destinationAddress: bscDest });
      const arrived = await until(async () => (await rails.bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(bscDest), bscToken)) > 0n, 10_000);
      expect(arrived, 'the BSC withdrawal was sent while Ethereum hung').toBe(true);
      expect(await rails.eth.tokenBalance(EVM_ADDRESS_CODEC.parse(ethDest), rails.eth.tokenOf('USDT'))).toBe(0n);
    } finally {
      proxy.state.hangWhen = null;
      proxy.cutHanging();
      await lane.stop();
    }
    const again = startJob(t.db, WITHDRAWAL_LANE_LEASE, 20_000);
    const ethArrived = await until(
      async () => (await rails.eth.tokenBalance(EVM_ADDRESS_CODEC.parse(ethDest), rails.eth.tokenOf('USDT'))) > 0n,
      20_000,
    );
    await again.stop();
    expect(ethArrived, 'the Ethereum withdrawal was sent once its node answered').toBe(true);
    // Each exactly once: 5.00 at 18 decimals on BSC, at 6 on Ethereum.
    expect(await rails.bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(bscDest), bscToken)).toBe(5_000_000_000_000_000_000n);
    expect(await rails.eth.tokenBalance(EVM_ADDRESS_CODEC.parse(ethDest), rails.eth.tokenOf('USDT'))).toBe(5_000_000n);
  });

  it("does not hold up another network's payment detection", async () => {
    const t = await railsTenant(rails);
    proxy.state.hangWhen = () => true;
    const watch = startJob(t.db, 'chain-watch-test', 20_000);
    try {
      expect(await until(async () => proxy.hangingCount() > 0, 15_000), 'the Ethereum watcher is waiting on its node').toBe(true);
      const inv = await createInvoice(t.test, { amount: '3.00' });
      await sendToken(rails.bsc, 'USDT', inv.depositAddress, '3');
      const seen = await until(async () => (await invoiceDetail(t.test, inv.id)).amountReceived === '3.00', 8_000);
      expect(seen, 'the BSC payment was detected while Ethereum hung').toBe(true);
    } finally {
      proxy.state.hangWhen = null;
      proxy.cutHanging();
      await watch.stop();
    }
  });

  it("does not hold up another network's payouts", async () => {
    const t = await railsTenant(rails);
    const eth = ethNet as ReadyNetwork<'rpcUrl' | 'tokenAddress', EvmNetwork>;
    const bsc = rails.bscNet as ReadyNetwork<'rpcUrl' | 'tokenAddress', EvmNetwork>;
    // An Ethereum invoice paid and confirmed: its settlement is due.
    const ethInv = await createInvoice(t.test, { amount: '20.00', chain: 'ETHEREUM', token: 'USDT' });
    await sendToken(rails.eth, 'USDT', ethInv.depositAddress, '20');
    await watchChain(t.db, eth);
    await rails.eth.mine(5);
    await watchChain(t.db, eth);
    expect((await createSettlements(t.db, ethNet)).length).toBeGreaterThan(0);

    proxy.state.hangWhen = () => true;
    const settle = startJob(t.db, 'settle-invoices', 20_000);
    try {
      expect(await until(async () => proxy.hangingCount() > 0, 15_000), "the settlement run is waiting on Ethereum's node").toBe(true);
      const bscInv = await createInvoice(t.test, { amount: '10.00' });
      await sendToken(rails.bsc, 'USDT', bscInv.depositAddress, '10');
      await watchChain(t.db, bsc);
      await rails.bsc.mine(5);
      await watchChain(t.db, bsc);
      await createSettlements(t.db, rails.bscNet);
      const paidOut = await until(async () => (await invoiceDetail(t.test, bscInv.id)).status === 'PAID_OUT', 10_000);
      expect(paidOut, 'the BSC invoice was paid out while Ethereum hung').toBe(true);
      expect((await invoiceDetail(t.test, ethInv.id)).status).not.toBe('PAID_OUT');
      expect(await rails.bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(bscInv.depositAddress))).toBe(0n);
    } finally {
      proxy.state.hangWhen = null;
      proxy.cutHanging();
      await settle.stop();
    }
  });
});
