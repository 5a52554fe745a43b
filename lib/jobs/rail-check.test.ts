import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { checkRailsAtStart } from '@/lib/chain/check-rails-at-start';
import { getNetworks, getRail, setNetworkOverride, tokensOf, type Network } from '@/lib/chain/network';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { clearRailVerdicts } from '@/lib/chain/rail-stops';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { freePort, startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { creditAsset } from '@/lib/testing/usdc-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Every rail checked against its chain before money moves (issue 30, section 5): the node's chain id,
 * each token's decimals() and symbol(), at start and before a lane's first send. Production refuses to
 * start naming the variable; development prints the same line and stops only that rail.
 */
let bsc: AnvilChain;
let eth: AnvilChain;
beforeAll(async () => {
  [bsc, eth] = await Promise.all([
    startAnvil({
      tokens: [
        { asset: 'USDT', decimals: 18 },
        { asset: 'USDC', decimals: 18 },
      ],
    }),
    startAnvil({ chain: 'ETHEREUM', tokens: [{ asset: 'USDC', decimals: 6 }] }),
  ]);
});
afterAll(async () => {
  await Promise.all([bsc?.stop(), eth?.stop()]);
});

/** Installs the test mode's networks for one case; the verdicts of earlier cases are forgotten. */
function install(bscNet: Network, ethNet: Network = eth.network('test')) {
  clearRailVerdicts();
  setNetworkOverride('test', bscNet, 'BSC');
  setNetworkOverride('test', ethNet, 'ETHEREUM');
}
afterEach(() => {
  setNetworkOverride('test', undefined, 'BSC');
  setNetworkOverride('test', undefined, 'ETHEREUM');
  clearRailVerdicts();
});

const enabled = () => getNetworks('test').flatMap((n) => tokensOf(n).map((t) => `${n.chain}:${t.asset}`));
/** BSC with USDT's decimals set to 6 on its 18-decimal contract (USDC stays right). */
const sixDecimalUsdt = () => bsc.network('test', { decimals: 6, tokens: bsc.tokens.map((t) => (t.asset === 'USDT' ? { ...t, decimals: 6 } : t)) });

describe('rail check at start', () => {
  it('a correct configuration passes and stops nothing', async () => {
    install(bsc.network('test'));
    expect(await checkRailsAtStart({ production: true })).toEqual([]);
    expect(enabled().sort()).toEqual(['BSC:USDC', 'BSC:USDT', 'ETHEREUM:USDC']);
  });

  it('decimals set to 6 on an 18-decimal token: production refuses to start, naming TEST_TOKEN_DECIMALS', async () => {
    install(sixDecimalUsdt());
    const refused = await checkRailsAtStart({ production: true }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain(
      `TEST_TOKEN_DECIMALS: the BSC:USDT contract ${bsc.tokenOf('USDT')} has 18 decimals, the configuration says 6`,
    );
  });

  it('in development the same message is printed and only that rail stops: its invoices are refused, the others work', async () => {
    install(sixDecimalUsdt());
    const problems = await checkRailsAtStart({ production: false });
    expect(problems.map((p) => `${p.variable}: ${p.message}`)).toEqual([
      `TEST_TOKEN_DECIMALS: the BSC:USDT contract ${bsc.tokenOf('USDT')} has 18 decimals, the configuration says 6; the test BSC:USDT rail is stopped`,
    ]);
    expect(enabled().sort()).toEqual(['BSC:USDC', 'ETHEREUM:USDC']);
    expect(getRail('test', 'BSC', 'USDT')).toBeUndefined();
    const t = await createTestTenant();
    const usdt = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } });
    expect(usdt.status, usdt.text).toBe(400);
    for (const body of [
      { amount: '5.00', token: 'USDC' },
      { amount: '5.00', chain: 'ETHEREUM', token: 'USDC' },
    ]) {
      const res = await call('POST', '/v1/invoices', { key: t.test, body });
      expect(res.status, res.text).toBe(201);
    }
  });

  it('a wrong chain id: refused naming TEST_CHAIN_ID, and in development every rail of that network stops, the other network works', async () => {
    install(bsc.network('test', { chainId: 56 }));
    const refused = await checkRailsAtStart({ production: true }).catch((e: Error) => e);
    expect((refused as Error).message).toContain(`TEST_CHAIN_ID: the node at TEST_RPC_URL is chain ${bsc.chainId}, not the configured 56`);
    install(bsc.network('test', { chainId: 56 }));
    await checkRailsAtStart({ production: false });
    expect(enabled()).toEqual(['ETHEREUM:USDC']);
  });

  it("a contract whose symbol() is not the rail's token is refused, naming its address variable", async () => {
    const dai = await eth.deployToken('Dai (test)', 6, 'DAI');
    install(bsc.network('test'), eth.network('test', { tokenAddress: dai, tokens: [{ asset: 'USDC', address: dai, decimals: 6 }] }));
    const refused = await checkRailsAtStart({ production: true }).catch((e: Error) => e);
    expect((refused as Error).message).toContain(`TEST_ETHEREUM_USDC_ADDRESS: the contract ${dai} is "DAI", expected "USDC" for ETHEREUM:USDC`);
    // A test token named otherwise is accepted once the expected symbol says so (TEST_ETHEREUM_USDC_SYMBOL).
    install(
      bsc.network('test'),
      eth.network('test', { tokenAddress: dai, tokens: [{ asset: 'USDC', address: dai, decimals: 6, symbols: ['DAI'] }] }),
    );
    expect(await checkRailsAtStart({ production: true })).toEqual([]);
  });

  it('a node that cannot be read is an error, never a pass: the lane does not send and says which variable', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    install(bsc.network('test', { rpcUrl: dead }));
    // Start-up logs it and goes on (the node may come back); nothing is marked checked.
    expect(await checkRailsAtStart({ production: true })).toEqual([]);
    const err = await checkedNetwork(bsc.network('test', { rpcUrl: dead })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcReadError);
    expect((err as Error).message).toMatch(/^TEST_RPC_URL: the rail check could not reach the test BSC node/);
  });
});

describe('rail check before the first send of a lane', () => {
  it('a withdrawal on a rail whose decimals are wrong is never sent; the right rail of the same network is', async () => {
    install(sixDecimalUsdt());
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDT', '10');
    await creditAsset(t.db, t.tenant.id, 'USDC', '10');
    // Created before any check ran in this process (as on a worker that just started).
    const to = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    const make = async (token: string) => {
      const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: to, token } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const [usdt, usdc] = [await make('USDT'), await make('USDC')];
    await bsc.mint(bsc.addresses.hot, '100', bsc.tokenOf('USDT'));
    await bsc.mint(bsc.addresses.hot, '100', bsc.tokenOf('USDC'));
    const lane = sixDecimalUsdt() as LaneNetwork;
    for (let i = 0; i < 2; i++) {
      await processWithdrawals(t.db, lane);
      await bsc.mine(6);
    }
    await processWithdrawals(t.db, lane);
    const status = async (id: string) => (await t.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
    expect(await status(usdt)).toMatchObject({ status: 'PENDING', txHash: null, pendingReason: 'USDT is not enabled on BSC; waiting.' });
    expect(await status(usdc)).toMatchObject({ status: 'COMPLETED' });
    expect(await bsc.tokenBalance(to)).toBe(0n);
  });
});
