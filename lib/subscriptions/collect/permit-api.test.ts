import { createWalletClient, http, parseSignature, parseUnits, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { setNetworkOverride } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { runBilling } from '../run-billing';
import { permissionIdOf } from './collector-network';
import { runCollection } from './run-collection';
import { setUpCollection } from './set-up-collection';

/*
 * GET /v1/subscriptions/{id}/collection on a USDC rail (Ethereum's stand-in: Circle's FiatToken with EIP-2612): the
 * answer's `permit` block is what the payer's wallet signs; the gateway's operator submits permitAndAuthorize with it,
 * the payer never holds gas, and the period is then pulled as after approve + authorize.
 */
let chain: AnvilChain;
let t: Awaited<ReturnType<typeof createTestTenant>>;

withTestChain(
  async (c) => {
    chain = c;
    setNetworkOverride('test', c.network('test'), 'ETHEREUM');
  },
  { chain: 'ETHEREUM', tokens: [{ asset: 'USDC', decimals: 6 }] },
);

beforeAll(async () => {
  t = await createTestTenant();
});

const units = (s: string) => parseUnits(s, 6);
const get = (id: string, query = '') => call('GET', `/v1/subscriptions/${id}/collection${query}`, { key: t.test });

type TypedData = { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, string> };
/** The wallet's eth_signTypedData_v4 of the answer's typed data, as (v, r, s). */
async function sign(key: Hex, td: TypedData) {
  const { EIP712Domain: _, ...types } = td.types;
  const sig = await privateKeyToAccount(key).signTypedData({ domain: td.domain, types, primaryType: td.primaryType, message: td.message } as never);
  const { r, s, yParity } = parseSignature(sig);
  return { v: yParity + 27, r, s };
}

describe('GET /v1/subscriptions/{id}/collection on a USDC rail: the permit block', () => {
  it('gives the typed data to sign; the signed pair, submitted by the operator, sets up collection and the period is pulled', async () => {
    const plan = await call('POST', '/v1/plans', {
      key: t.test,
      body: { name: 'Daily', amount: '10.00', chain: 'ETHEREUM', token: 'USDC', interval: 'day', trialDays: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'pam@example.com' } })).body;

    const bare = await get(sub.id);
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toMatchObject({
      state: 'not_set_up',
      chain: 'ETHEREUM',
      token: 'USDC',
      permit: { permitValue: units('120').toString(), typedData: null },
    });
    const deadline = Number(bare.body.permit.deadline);
    expect(Math.abs(deadline - (Date.now() / 1000 + 3600))).toBeLessThan(60);
    expect((await get(sub.id, '?payer=0x1234')).status).toBe(400);

    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.mint(payer, '100');
    const res = await get(sub.id, `?payer=${payer}`);
    expect(res.status, res.text).toBe(200);
    const { permit, authorize } = res.body.permit.typedData;
    expect(permit).toMatchObject({
      domain: { name: 'USDC (test)', version: '2', chainId: chain.chainId },
      primaryType: 'Permit',
      message: { owner: payer, value: units('120').toString(), nonce: '0', deadline: res.body.permit.deadline },
    });
    expect(permit.domain.verifyingContract.toLowerCase()).toBe(chain.token.toLowerCase());
    expect(permit.message.spender.toLowerCase()).toBe(chain.collector.toLowerCase());
    expect(authorize).toMatchObject({
      domain: { name: 'SubscriptionCollector', version: '1', chainId: chain.chainId },
      primaryType: 'Authorize',
      message: {
        payer,
        subscriptionId: permissionIdOf(sub.id),
        maxPerPeriod: units('10').toString(),
        periodSeconds: '86400',
        start: res.body.authorize.start,
        nonce: '0',
      },
    });

    // The gateway's operator submits what the payer signed; the payer holds no gas coin at all.
    expect(await chain.client.getBalance({ address: payer })).toBe(0n);
    const m = authorize.message;
    const operator = createWalletClient({
      chain: chain.client.chain,
      account: privateKeyToAccount(chain.keys.gas),
      transport: http(chain.rpcUrl),
      cacheTime: 0,
    });
    const hash = await operator.writeContract({
      address: res.body.collectorAddress,
      abi: COLLECTOR_ABI,
      functionName: 'permitAndAuthorize',
      args: [
        payer,
        {
          subscriptionId: m.subscriptionId,
          token: m.token,
          maxPerPeriod: BigInt(m.maxPerPeriod),
          periodSeconds: BigInt(m.periodSeconds),
          start: BigInt(m.start),
        },
        BigInt(res.body.permit.permitValue),
        BigInt(res.body.permit.deadline),
        await sign(key, permit),
        await sign(key, authorize),
      ],
    });
    expect((await chain.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    await setUpCollection(t.db, sub.id, { payer });
    expect((await get(sub.id)).body).toMatchObject({ state: 'authorized', allowance: '120', balance: '100' });
    // The nonces moved on: the next typed data is a new consent.
    expect((await get(sub.id, `?payer=${payer}`)).body.permit.typedData.authorize.message.nonce).toBe('1');

    const at = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
    await chain.client.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(at.getTime() / 1000)) });
    await chain.mine(1);
    await runBilling(t.db, { now: at, tenantId: t.tenant.id });
    expect(await runCollection(t.db, { now: at, tenantId: t.tenant.id })).toMatchObject({ pulled: 1 });
    expect((await get(sub.id)).body).toMatchObject({ state: 'period_collected', balance: '90', allowance: '110' });
  });
});
