import { createWalletClient, erc20Abi, http, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { setNetworkOverride, type EvmNetwork } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { runBilling } from '../run-billing';
import { permissionIdOf } from './collector-network';
import { runCollection } from './run-collection';
import { setUpCollection } from './set-up-collection';

/*
 * GET /v1/subscriptions/{id}/collection on anvil: the payer's wallet follows what it returns (approve, authorize) and
 * the state it reads from the chain follows the payer and the pulls; an unreadable node is a 503, never a verdict.
 * Scopes and isolation of every operation: lib/api/auth-matrix.test.ts.
 */
let chain: AnvilChain;
let net: EvmNetwork;
let t: Awaited<ReturnType<typeof createTestTenant>>;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

beforeAll(async () => {
  t = await createTestTenant();
});

const units = (s: string) => parseUnits(s, 18);
const chainNow = async () => new Date(Number((await chain.client.getBlock()).timestamp) * 1000);
const get = (id: string, key = t.test) => call('GET', `/v1/subscriptions/${id}/collection`, { key });

async function send(key: Hex, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const wallet = createWalletClient({ chain: chain.client.chain, account: privateKeyToAccount(key), transport: http(chain.rpcUrl), cacheTime: 0 });
  const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 300_000n });
  return chain.client.waitForTransactionReceipt({ hash });
}

describe('GET /v1/subscriptions/{id}/collection', () => {
  it("tells the payer what to sign, then follows the chain: authorized, pulled this period, allowance revoked; another tenant's id is a 404", async () => {
    const plan = await call('POST', '/v1/plans', { key: t.test, body: { name: 'Daily', amount: '10.00', interval: 'day', trialDays: 1 } });
    expect(plan.status, plan.text).toBe(201);
    const created = await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'pat@example.com' } });
    expect(created.status, created.text).toBe(201);
    const sub = created.body;

    const before = await get(sub.id);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({
      subscriptionId: sub.id,
      state: 'not_set_up',
      chain: 'BSC',
      chainId: net.chainId,
      token: 'USDT',
      tokenAddress: chain.token.toLowerCase(),
      collectorAddress: chain.collector.toLowerCase(),
      approve: { spender: chain.collector.toLowerCase(), amountPerPeriod: units('10').toString() },
      authorize: {
        subscriptionId: permissionIdOf(sub.id),
        token: chain.token.toLowerCase(),
        maxPerPeriod: units('10').toString(),
        periodSeconds: 86_400,
      },
      // BSC's USDT has no EIP-2612 permit: approve and authorize.
      permit: null,
      payer: null,
      attempts: [],
    });
    expect(before.body.authorize.start).toBe(String(Math.floor(new Date(sub.currentPeriodEnd).getTime() / 1000)));

    // The payer's wallet does exactly what it was told.
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.client.setBalance({ address: payer, value: units('1') });
    await chain.mint(payer, '100');
    const a = before.body.authorize;
    await send(key, chain.token, erc20Abi, 'approve', [before.body.approve.spender, BigInt(before.body.approve.amountPerPeriod) * 12n]);
    await send(key, before.body.collectorAddress, COLLECTOR_ABI, 'authorize', [
      a.subscriptionId,
      a.token,
      BigInt(a.maxPerPeriod),
      BigInt(a.periodSeconds),
      BigInt(a.start),
    ]);
    await setUpCollection(t.db, sub.id, { payer });
    const authorized = await get(sub.id);
    expect(authorized.body).toMatchObject({ state: 'authorized', payer: payer.toLowerCase(), allowance: '120', balance: '100' });

    // The trial ends: the period is billed and pulled; the state says this period's cap is used.
    const at = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
    await chain.client.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(at.getTime() / 1000)) });
    await chain.mine(1);
    await runBilling(t.db, { now: at, tenantId: t.tenant.id });
    expect(await runCollection(t.db, { now: at, tenantId: t.tenant.id })).toMatchObject({ pulled: 1 });
    const pulled = await get(sub.id);
    expect(pulled.body).toMatchObject({ state: 'period_collected', balance: '90', allowance: '110' });
    expect(pulled.body.attempts).toEqual([
      expect.objectContaining({
        status: 'confirmed',
        amount: '10.00',
        reason: null,
        txHash: expect.stringMatching(/^0x/),
        networkFee: expect.any(String),
      }),
    ]);

    await send(key, chain.token, erc20Abi, 'approve', [chain.collector, 0n]);
    expect((await get(sub.id)).body).toMatchObject({ state: 'allowance_revoked', allowance: '0' });

    const other = await createTestTenant();
    const foreign = await get(sub.id, other.test);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
  });

  it('a node that cannot be read is a 503 service_unavailable, never a state', async () => {
    const plan = await call('POST', '/v1/plans', { key: t.test, body: { name: 'Daily', amount: '5.00', interval: 'day', trialDays: 1 } });
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'sam@example.com' } })).body;
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.client.setBalance({ address: payer, value: units('1') });
    await send(key, chain.collector, COLLECTOR_ABI, 'authorize', [
      permissionIdOf(sub.id),
      chain.token,
      units('5'),
      86_400n,
      BigInt((await chainNow()).getTime() / 1000),
    ]);
    await setUpCollection(t.db, sub.id, { payer });
    setNetworkOverride('test', { ...net, rpcUrl: 'http://127.0.0.1:9' });
    try {
      const res = await get(sub.id);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('service_unavailable');
    } finally {
      setNetworkOverride('test', net);
    }
    expect((await get(sub.id)).body).toMatchObject({ state: 'allowance_revoked' });
  });
});
