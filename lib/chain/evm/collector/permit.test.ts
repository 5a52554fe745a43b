import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  http,
  keccak256,
  parseSignature,
  parseUnits,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, tokenArtifact, type AnvilChain } from '@/lib/testing/anvil';
import { COLLECTOR_ABI } from './deploy-collector';
import { permitTypedData, type AuthorizeTerms, type PermitTypedData } from './permit-typed-data';

/*
 * Issue 48 §2: the gasless set-up for USDC (EIP-2612). The payer holds no gas coin: they sign the token's Permit and
 * the collector's Authorize, the operator submits `permitAndAuthorize`. Every rejection is a mined transaction that
 * reverted (its reason read with eth_call first) and changed nothing. Ethereum's USDC stand-in: Circle's FiatToken
 * with its permit (lib/testing/tokens/TestStablecoins.sol), 6 decimals.
 */
const DAY = 86_400n;
const USDC = { asset: 'USDC' as const, decimals: 6 };
const FIAT_TOKEN_ABI = tokenArtifact('TestFiatToken').abi;
let chain: AnvilChain;
let seq = 0;
const gas: Record<string, number> = {};

beforeAll(async () => {
  chain = await startAnvil({ chain: 'ETHEREUM', tokens: [USDC] });
}, 60_000);
afterAll(async () => {
  if (Object.keys(gas).length) console.log(`[permit gas] ${JSON.stringify(gas)}`);
  await chain?.stop();
});

const units = (s: string) => parseUnits(s, 6);
const wallet = (key: Hex) =>
  createWalletClient({
    chain: chain.client.chain,
    account: privateKeyToAccount(key),
    transport: http(chain.rpcUrl),
    cacheTime: 0,
    pollingInterval: 50,
  });
const now = async () => (await chain.client.getBlock()).timestamp;
const read = (address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
  chain.client.readContract({ address, abi, functionName, args }) as Promise<unknown>;

/** Sends at a fixed gas limit (a revert is mined, not estimated away) and returns the outcome and, if reverted, why. */
async function send(key: Hex, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  let reason: string | undefined;
  try {
    await chain.client.simulateContract({ address, abi, functionName, args, account: privateKeyToAccount(key) });
  } catch (e) {
    const revert = e instanceof BaseError ? e.walk((x) => x instanceof ContractFunctionRevertedError) : undefined;
    // A custom error by its name, a require by its message.
    const err = revert instanceof ContractFunctionRevertedError ? revert : undefined;
    reason = err ? ((err.data?.errorName === 'Error' ? err.reason : (err.data?.errorName ?? err.reason)) ?? 'reverted') : String(e);
  }
  const hash = await wallet(key).writeContract({ address, abi, functionName, args, gas: 500_000n });
  const receipt = await chain.client.waitForTransactionReceipt({ hash });
  return { status: receipt.status, reason, gasUsed: receipt.gasUsed };
}

/** Signs one of the API's typed data (decimal strings) as a wallet's eth_signTypedData_v4 would: its (v, r, s). */
async function sign(key: Hex, td: PermitTypedData['permit'] | PermitTypedData['authorize']) {
  const { EIP712Domain: _, ...types } = td.types;
  const message = Object.fromEntries(Object.entries(td.message).map(([k, v]) => [k, /^\d+$/.test(v) ? BigInt(v) : v]));
  const sig = await privateKeyToAccount(key).signTypedData({ domain: td.domain, types, primaryType: td.primaryType, message } as never);
  const { r, s, yParity } = parseSignature(sig);
  return { v: yParity + 27, r, s };
}

/** A payer with USDC and no gas coin, the terms of a new daily subscription and the two messages they sign. */
async function setUp(opts: { cap?: string; permitValue?: string; deadline?: bigint; start?: bigint } = {}) {
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key).address;
  await chain.mint(payer, '1000');
  const terms: AuthorizeTerms = {
    subscriptionId: keccak256(toHex(`sub-permit-${process.pid}-${++seq}`)),
    token: chain.token,
    maxPerPeriod: units(opts.cap ?? '10'),
    periodSeconds: DAY,
    start: opts.start ?? (await now()),
  };
  const deadline = opts.deadline ?? (await now()) + 3_600n;
  const permitValue = units(opts.permitValue ?? '120');
  const td = permitTypedData({
    chainId: chain.chainId,
    collector: chain.collector,
    token: { address: chain.token, name: (await read(chain.token, FIAT_TOKEN_ABI, 'name')) as string, version: '2' },
    payer,
    terms,
    permitValue,
    deadline,
    tokenNonce: (await read(chain.token, FIAT_TOKEN_ABI, 'nonces', [payer])) as bigint,
    collectorNonce: (await read(chain.collector, COLLECTOR_ABI, 'nonces', [payer])) as bigint,
  });
  return { key, payer, terms, deadline, permitValue, td, permitSig: await sign(key, td.permit), authorizeSig: await sign(key, td.authorize) };
}

type SetUp = Awaited<ReturnType<typeof setUp>>;
const submit = (
  u: SetUp,
  over: Partial<Pick<SetUp, 'permitSig' | 'authorizeSig' | 'terms' | 'deadline' | 'permitValue'>> = {},
  by = chain.keys.gas,
) => {
  const x = { ...u, ...over };
  return send(by, chain.collector, COLLECTOR_ABI, 'permitAndAuthorize', [x.payer, x.terms, x.permitValue, x.deadline, x.permitSig, x.authorizeSig]);
};
const permission = async (payer: Address, id: Hex) => (await read(chain.collector, COLLECTOR_ABI, 'permissions', [payer, id])) as readonly unknown[];
const allowance = (payer: Address) => read(chain.token, FIAT_TOKEN_ABI, 'allowance', [payer, chain.collector]) as Promise<bigint>;

async function depositAddress() {
  const to = privateKeyToAccount(generatePrivateKey()).address;
  expect(await send(chain.keys.collectorAdmin, chain.collector, COLLECTOR_ABI, 'setDepositAllowed', [to, true])).toMatchObject({ status: 'success' });
  return to;
}

describe('permitAndAuthorize (EIP-2612 USDC) on anvil', () => {
  it("sets the allowance and the permission from the payer's two signatures, submitted by the operator; pulls then work", async () => {
    const u = await setUp();
    expect(await chain.client.getBalance({ address: u.payer })).toBe(0n);
    const res = await submit(u);
    expect(res).toMatchObject({ status: 'success', reason: undefined });
    gas.permitAndAuthorize = Number(res.gasUsed);
    expect(await allowance(u.payer)).toBe(u.permitValue);
    expect(await permission(u.payer, u.terms.subscriptionId)).toEqual([chain.token, Number(u.terms.start), 86_400, units('10'), 0n, 0, false]);
    expect(await read(chain.collector, COLLECTOR_ABI, 'nonces', [u.payer])).toBe(1n);
    expect(await read(chain.token, FIAT_TOKEN_ABI, 'nonces', [u.payer])).toBe(1n);

    const to = await depositAddress();
    const pull = await send(chain.keys.gas, chain.collector, COLLECTOR_ABI, 'collect', [u.terms.subscriptionId, u.payer, units('10'), to]);
    expect(pull.status).toBe('success');
    gas.firstPull = Number(pull.gasUsed);
    expect(await chain.tokenBalance(to)).toBe(units('10'));
    expect(await allowance(u.payer)).toBe(units('110'));
    expect(await send(chain.keys.gas, chain.collector, COLLECTOR_ABI, 'collect', [u.terms.subscriptionId, u.payer, 1n, to])).toMatchObject({
      status: 'reverted',
      reason: 'OverCap',
    });
  });

  it('a replayed set-up reverts, also after the payer revoked: a revoked permission cannot be brought back', async () => {
    const u = await setUp();
    expect((await submit(u)).status).toBe('success');
    expect(await submit(u)).toMatchObject({ status: 'reverted', reason: 'BadSignature' });
    // The payer revokes (from a wallet with gas this time); the operator replays their old consent.
    await chain.client.setBalance({ address: u.payer, value: parseUnits('1', 18) });
    expect((await send(u.key, chain.collector, COLLECTOR_ABI, 'revoke', [u.terms.subscriptionId])).status).toBe('success');
    expect(await submit(u)).toMatchObject({ status: 'reverted', reason: 'BadSignature' });
    expect((await permission(u.payer, u.terms.subscriptionId))[6]).toBe(true);
  });

  it('an expired set-up reverts, and so does an expired permit at the token', async () => {
    const u = await setUp({ deadline: (await now()) + 60n });
    await chain.client.setNextBlockTimestamp({ timestamp: u.deadline + 1n });
    await chain.mine(1);
    expect(await submit(u)).toMatchObject({ status: 'reverted', reason: 'Expired' });
    const { v, r, s } = u.permitSig;
    expect(
      await send(chain.keys.gas, chain.token, FIAT_TOKEN_ABI, 'permit', [u.payer, chain.collector, u.permitValue, u.deadline, v, r, s]),
    ).toMatchObject({
      status: 'reverted',
      reason: 'FiatTokenV2: permit is expired',
    });
    expect(await allowance(u.payer)).toBe(0n);
    expect((await permission(u.payer, u.terms.subscriptionId))[0]).toBe('0x0000000000000000000000000000000000000000');
  });

  it('a permit or an Authorize signed by anyone but the payer reverts, and so do terms the payer did not sign', async () => {
    const u = await setUp();
    const thief = generatePrivateKey();
    expect(await submit(u, { permitSig: await sign(thief, u.td.permit) })).toMatchObject({ status: 'reverted', reason: 'PermitFailed' });
    expect(await submit(u, { authorizeSig: await sign(thief, u.td.authorize) })).toMatchObject({ status: 'reverted', reason: 'BadSignature' });
    expect(await submit(u, { authorizeSig: await sign(chain.keys.gas, u.td.authorize) })).toMatchObject({
      status: 'reverted',
      reason: 'BadSignature',
    });
    // The payer's signatures with a larger cap, an earlier start or a larger allowance: not what they signed.
    expect(await submit(u, { terms: { ...u.terms, maxPerPeriod: units('1000') } })).toMatchObject({ status: 'reverted', reason: 'BadSignature' });
    expect(await submit(u, { terms: { ...u.terms, start: u.terms.start - DAY } })).toMatchObject({ status: 'reverted', reason: 'BadSignature' });
    expect(await submit(u, { permitValue: units('100000') })).toMatchObject({ status: 'reverted', reason: 'PermitFailed' });
    // The token refuses the permit of a wrong signer by itself too.
    const bad = await sign(thief, u.td.permit);
    expect(
      await send(chain.keys.gas, chain.token, FIAT_TOKEN_ABI, 'permit', [u.payer, chain.collector, u.permitValue, u.deadline, bad.v, bad.r, bad.s]),
    ).toMatchObject({
      status: 'reverted',
      reason: 'EIP2612: invalid signature',
    });
    expect(await allowance(u.payer)).toBe(0n);
    // Nothing was used up by the failures: the payer's own set-up still goes through.
    expect((await submit(u)).status).toBe('success');
  });

  it('a permit copied from the mempool and submitted first at the token does not block the set-up', async () => {
    const u = await setUp();
    const { v, r, s } = u.permitSig;
    expect(
      (await send(chain.keys.other, chain.token, FIAT_TOKEN_ABI, 'permit', [u.payer, chain.collector, u.permitValue, u.deadline, v, r, s])).status,
    ).toBe('success');
    const res = await submit(u);
    expect(res).toMatchObject({ status: 'success' });
    gas.permitAndAuthorizeAfterFrontRun = Number(res.gasUsed);
    expect((await permission(u.payer, u.terms.subscriptionId))[3]).toBe(units('10'));
  });
});
