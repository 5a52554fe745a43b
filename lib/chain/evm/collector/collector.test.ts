import solc from 'solc';
import {
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  erc20Abi,
  http,
  keccak256,
  parseUnits,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, planAnvil, startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { COLLECTOR_ABI } from './deploy-collector';
import { readCollectionState } from '@/lib/subscriptions/read-collection-state';

/*
 * Issue 48 §2: the subscription collector, driven from outside with viem on anvil as a payer, the gateway's operator
 * (the gas wallet), its admin and a thief would. Every rejection is a mined transaction that reverted and moved
 * nothing; its reason is read with eth_call first. Time is moved with the next block's timestamp, never slept.
 */
const DAY = 86_400n;
const USDT = { asset: 'USDT' as const, decimals: 18 };
let chain: AnvilChain;
let planned: ReturnType<typeof planAnvil>;
let seq = 0;
const gas: Record<string, bigint> = {};

beforeAll(async () => {
  planned = planAnvil({ port: await freePort(), chainId: 700_000 + Math.floor(Math.random() * 99_999), tokens: [USDT] });
  chain = await startAnvil({ port: planned.port, chainId: planned.chainId, tokens: [USDT] });
}, 60_000);
afterAll(async () => {
  if (Object.keys(gas).length)
    console.log(`[collector gas] ${JSON.stringify(Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])))}`);
  await chain?.stop();
});

const wallet = (key: Hex) =>
  createWalletClient({
    chain: chain.client.chain,
    account: privateKeyToAccount(key),
    transport: http(chain.rpcUrl),
    cacheTime: 0,
    pollingInterval: 50,
  });
const operatorKey = () => chain.keys.gas;
const adminKey = () => chain.keys.collectorAdmin;
const units = (s: string) => parseUnits(s, 18);
const subId = () => keccak256(toHex(`sub-${process.pid}-${++seq}`));

/** A new payer holding `funds` of the token, gas to spend, and the collector approved without limit. */
async function newPayer(funds = '1000', token: Address = chain.token, tokenAbi: Abi = erc20Abi) {
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  await chain.client.setBalance({ address, value: units('1') });
  if (token === chain.token) await chain.mint(address, funds);
  else await send(chain.keys.faucet, token, tokenAbi, 'mint', [address, units(funds)]);
  await send(key, token, tokenAbi, 'approve', [chain.collector, 2n ** 256n - 1n]);
  return { key, address };
}

/** A fresh address the admin allows as a pull destination (an invoice's deposit address). */
async function depositAddress() {
  const to = privateKeyToAccount(generatePrivateKey()).address;
  await expect(send(adminKey(), chain.collector, COLLECTOR_ABI, 'setDepositAllowed', [to, true])).resolves.toMatchObject({ status: 'success' });
  return to;
}

/** Sends a transaction at a fixed gas limit (no estimate, so a revert is mined) and returns its outcome and, if it reverts, why. */
async function send(key: Hex, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  let reason: string | undefined;
  try {
    await chain.client.simulateContract({ address, abi, functionName, args, account: privateKeyToAccount(key) });
  } catch (e) {
    const revert = e instanceof BaseError ? e.walk((x) => x instanceof ContractFunctionRevertedError) : undefined;
    reason = revert instanceof ContractFunctionRevertedError ? (revert.data?.errorName ?? revert.reason ?? 'reverted') : String(e);
  }
  const hash = await wallet(key).writeContract({ address, abi, functionName, args, gas: 500_000n });
  const receipt = await chain.client.waitForTransactionReceipt({ hash });
  return { status: receipt.status, reason, gasUsed: receipt.gasUsed };
}

const collect = (id: Hex, payer: Address, amount: bigint, to: Address, key: Hex = operatorKey()) =>
  send(key, chain.collector, COLLECTOR_ABI, 'collect', [id, payer, amount, to]);

/** The chain's next blocks start at `t` (seconds): the pulls below run well inside a period, minutes from its edges. */
async function at(t: bigint) {
  await chain.client.setNextBlockTimestamp({ timestamp: t });
  await chain.mine(1);
}
const now = async () => (await chain.client.getBlock()).timestamp;
const balance = (who: Address, token: Address = chain.token) => chain.tokenBalance(who, token);

/** A payer who authorized `cap` per day from `start` for a new subscription. */
async function subscribed(cap: string, start: bigint, token: Address = chain.token, tokenAbi: Abi = erc20Abi) {
  const payer = await newPayer('1000', token, tokenAbi);
  const id = subId();
  const auth = await send(payer.key, chain.collector, COLLECTOR_ABI, 'authorize', [id, token, units(cap), DAY, start]);
  expect(auth).toMatchObject({ status: 'success' });
  gas.authorize ??= auth.gasUsed;
  return { payer, id };
}

describe('the subscription collector on anvil', () => {
  it('is deployed where planAnvil predicted (the dev stack starts Next with that address), operated by the gas wallet', async () => {
    expect(chain.collector.toLowerCase()).toBe(planned.collector.toLowerCase());
    expect(chain.disperse.toLowerCase()).toBe(planned.disperse.toLowerCase());
    const read = (functionName: 'operator' | 'admin') => chain.client.readContract({ address: chain.collector, abi: COLLECTOR_ABI, functionName });
    expect(await read('operator')).toBe(chain.addresses.gas);
    expect(await read('admin')).toBe(privateKeyToAccount(adminKey()).address);
    expect(chain.network('test').collectorAddress).toBe(chain.collector);
  });

  it('pulls within the cap, not before the start, at most the cap per period in total; the next period allows another pull', async () => {
    const start = (await now()) + 10_000n;
    const { payer, id } = await subscribed('10', start);
    const to = await depositAddress();

    await at(start - 1_000n);
    expect(await collect(id, payer.address, units('10'), to)).toMatchObject({ status: 'reverted', reason: 'NotStarted' });

    await at(start + 600n);
    const first = await collect(id, payer.address, units('6'), to);
    expect(first.status).toBe('success');
    expect(await collect(id, payer.address, units('5'), to)).toMatchObject({ status: 'reverted', reason: 'OverCap' });
    const second = await collect(id, payer.address, units('4'), to);
    expect(second.status).toBe('success');
    expect(await collect(id, payer.address, 1n, to)).toMatchObject({ status: 'reverted', reason: 'OverCap' });
    expect(await balance(to)).toBe(units('10'));
    expect(await balance(payer.address)).toBe(units('990'));

    await at(start + DAY + 600n);
    const next = await depositAddress();
    expect(await collect(id, payer.address, units('10.01'), next)).toMatchObject({ status: 'reverted', reason: 'OverCap' });
    const third = await collect(id, payer.address, units('10'), next);
    expect(third.status).toBe('success');
    expect(await collect(id, payer.address, 1n, next)).toMatchObject({ status: 'reverted', reason: 'OverCap' });
    expect(await balance(next)).toBe(units('10'));
    expect(await balance(payer.address)).toBe(units('980'));
    // A period that passes without a pull does not add to the next one: two days later the cap is still 10.
    await at(start + 3n * DAY + 600n);
    expect(await collect(id, payer.address, units('10.01'), next)).toMatchObject({ status: 'reverted', reason: 'OverCap' });
    Object.assign(gas, { firstPullFreshAddress: first.gasUsed, secondPullSamePeriod: second.gasUsed, nextPeriodFreshAddress: third.gasUsed });
  });

  it('a revoked permission cannot be pulled; only its payer revokes it', async () => {
    const { payer, id } = await subscribed('10', await now());
    const to = await depositAddress();
    expect((await collect(id, payer.address, units('1'), to)).status).toBe('success');
    const thief = await newPayer('1');
    // Another wallet "revoking" reaches its own (empty) permission, never the payer's.
    expect(await send(thief.key, chain.collector, COLLECTOR_ABI, 'revoke', [id])).toMatchObject({ status: 'reverted', reason: 'NoPermission' });
    expect((await collect(id, payer.address, units('1'), to)).status).toBe('success');
    expect(await send(payer.key, chain.collector, COLLECTOR_ABI, 'revoke', [id])).toMatchObject({ status: 'success' });
    expect(await collect(id, payer.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'PermissionRevoked' });
    expect(await balance(to)).toBe(units('2'));
  });

  it('pulls only into addresses the admin allowed; the operator cannot allow one', async () => {
    const { payer, id } = await subscribed('10', await now());
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    expect(await collect(id, payer.address, units('1'), elsewhere)).toMatchObject({ status: 'reverted', reason: 'DepositNotAllowed' });
    expect(await send(operatorKey(), chain.collector, COLLECTOR_ABI, 'setDepositAllowed', [elsewhere, true])).toMatchObject({
      status: 'reverted',
      reason: 'NotAdmin',
    });
    expect(await collect(id, payer.address, units('1'), elsewhere)).toMatchObject({ status: 'reverted', reason: 'DepositNotAllowed' });
    // An address the admin stops allowing is closed again.
    const to = await depositAddress();
    expect(await send(adminKey(), chain.collector, COLLECTOR_ABI, 'setDepositsAllowed', [[to], false])).toMatchObject({ status: 'success' });
    expect(await collect(id, payer.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'DepositNotAllowed' });
    expect(await balance(elsewhere)).toBe(0n);
    expect(await balance(payer.address)).toBe(units('1000'));
  });

  it('only the operator pulls; the admin replaces a leaked operator key, which then pulls nothing', async () => {
    const { payer, id } = await subscribed('10', await now());
    const to = await depositAddress();
    for (const key of [payer.key, adminKey(), chain.keys.hot, generatePrivateKey()]) {
      if (key !== payer.key) await chain.client.setBalance({ address: privateKeyToAccount(key).address, value: units('1') });
      expect(await collect(id, payer.address, units('1'), to, key)).toMatchObject({ status: 'reverted', reason: 'NotOperator' });
    }
    // The permission is the payer's own: the same id under another payer holds nothing.
    const other = await newPayer('100');
    expect(await collect(id, other.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'NoPermission' });

    const replacement = generatePrivateKey();
    await chain.client.setBalance({ address: privateKeyToAccount(replacement).address, value: units('1') });
    expect(await send(operatorKey(), chain.collector, COLLECTOR_ABI, 'setOperator', [privateKeyToAccount(operatorKey()).address])).toMatchObject({
      status: 'reverted',
      reason: 'NotAdmin',
    });
    expect(await send(adminKey(), chain.collector, COLLECTOR_ABI, 'setOperator', [privateKeyToAccount(replacement).address])).toMatchObject({
      status: 'success',
    });
    try {
      expect(await collect(id, payer.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'NotOperator' });
      expect((await collect(id, payer.address, units('1'), to, replacement)).status).toBe('success');
    } finally {
      await send(adminKey(), chain.collector, COLLECTOR_ABI, 'setOperator', [chain.addresses.gas]);
    }
    expect(await balance(to)).toBe(units('1'));
  });

  it('a payer who sets the allowance to zero stops every pull (the token refuses), and nothing moves', async () => {
    const { payer, id } = await subscribed('10', await now());
    const to = await depositAddress();
    await send(payer.key, chain.token, erc20Abi, 'approve', [chain.collector, 0n]);
    expect(await collect(id, payer.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'TransferFailed' });
    expect(await balance(payer.address)).toBe(units('1000'));
  });

  it('refuses nonsense permissions: a token without code, a zero cap or period', async () => {
    const payer = await newPayer('1');
    const noCode = privateKeyToAccount(generatePrivateKey()).address;
    for (const args of [
      [subId(), noCode, units('1'), DAY, 0n],
      [subId(), chain.token, 0n, DAY, 0n],
      [subId(), chain.token, units('1'), 0n, 0n],
    ])
      expect(await send(payer.key, chain.collector, COLLECTOR_ABI, 'authorize', args)).toMatchObject({ status: 'reverted', reason: 'BadPermission' });
  });

  it('the read before a pull (balance, allowance, what the permission allows) agrees with what the pull then does', async () => {
    const { payer, id } = await subscribed('10', await now());
    const to = await depositAddress();
    const net = { rpcUrl: chain.rpcUrl, collectorAddress: chain.collector };
    const state = (amount: string) =>
      readCollectionState(net, { subscriptionId: id, payer: payer.address, token: chain.token, amount: units(amount) });
    /** The read's verdict, then the pull it predicts: success when ready, a revert and nothing moved when not. */
    const expectPull = async (amount: string, want: { ready: boolean; reason?: string }) => {
      expect(await state(amount)).toMatchObject(want);
      const before = await balance(to);
      const pull = await collect(id, payer.address, units(amount), to);
      expect(pull.status).toBe(want.ready ? 'success' : 'reverted');
      expect(await balance(to)).toBe(want.ready ? before + units(amount) : before);
    };
    expect(await state('10')).toEqual({ ready: true, balance: units('1000'), allowance: 2n ** 256n - 1n, available: units('10') });
    await send(payer.key, chain.token, erc20Abi, 'approve', [chain.collector, units('3')]);
    await expectPull('4', { ready: false, reason: 'insufficient_allowance' });
    await expectPull('3', { ready: true });
    await send(payer.key, chain.token, erc20Abi, 'approve', [chain.collector, 0n]);
    await expectPull('1', { ready: false, reason: 'allowance_revoked' });
    await send(payer.key, chain.token, erc20Abi, 'approve', [chain.collector, units('100')]);
    await send(payer.key, chain.token, erc20Abi, 'transfer', [chain.addresses.faucet, units('992')]);
    await expectPull('6', { ready: false, reason: 'insufficient_balance' });
    await expectPull('5', { ready: true });
    await chain.mint(payer.address, '100');
    await expectPull('3', { ready: false, reason: 'not_authorized' }); // 8 of 10 pulled this period
    await send(payer.key, chain.collector, COLLECTOR_ABI, 'revoke', [id]);
    await expectPull('1', { ready: false, reason: 'not_authorized' });
  });

  describe('a token whose transferFrom returns nothing (USDT on Ethereum) or false', () => {
    let noBool: { address: Address; abi: Abi };
    let falseToken: { address: Address; abi: Abi };
    beforeAll(async () => {
      const compiled = compileTokens();
      const deploy = async (name: 'NoBoolToken' | 'FalseToken') => {
        const { abi, bytecode } = compiled[name];
        const hash = await chain.faucet.deployContract({ abi, bytecode });
        return { address: (await chain.client.waitForTransactionReceipt({ hash })).contractAddress!, abi };
      };
      noBool = await deploy('NoBoolToken');
      falseToken = await deploy('FalseToken');
    }, 60_000);

    it('pulls from a token that returns nothing, within the cap, and a failing one reverts', async () => {
      const { payer, id } = await subscribed('10', await now(), noBool.address, noBool.abi);
      const to = await depositAddress();
      const pulled = await collect(id, payer.address, units('10'), to);
      expect(pulled.status).toBe('success');
      gas.noBoolTokenPull = pulled.gasUsed;
      expect(await balance(to, noBool.address)).toBe(units('10'));
      expect(await collect(id, payer.address, 1n, to)).toMatchObject({ status: 'reverted', reason: 'OverCap' });
      // The token itself refuses (allowance gone): the pull reverts, nothing counted or moved.
      await send(payer.key, noBool.address, noBool.abi, 'approve', [chain.collector, 0n]);
      await at((await now()) + DAY);
      expect(await collect(id, payer.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'TransferFailed' });
      expect(await balance(payer.address, noBool.address)).toBe(units('990'));
    });

    it('a token returning false is a failed pull', async () => {
      const payer = await newPayer('1');
      const id = subId();
      await send(payer.key, chain.collector, COLLECTOR_ABI, 'authorize', [id, falseToken.address, units('10'), DAY, 0n]);
      const to = await depositAddress();
      expect(await collect(id, payer.address, units('1'), to)).toMatchObject({ status: 'reverted', reason: 'TransferFailed' });
    });
  });
});

/** Two test-only tokens, compiled here with the same `solc` package (they exist only for this file). */
function compileTokens(): Record<'NoBoolToken' | 'FalseToken', { abi: Abi; bytecode: Hex }> {
  const content = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract NoBoolToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    function mint(address to, uint256 v) external { balanceOf[to] += v; }
    function approve(address s, uint256 v) external { allowance[msg.sender][s] = v; }
    function transferFrom(address f, address t, uint256 v) external {
        require(allowance[f][msg.sender] >= v && balanceOf[f] >= v);
        allowance[f][msg.sender] -= v;
        balanceOf[f] -= v;
        balanceOf[t] += v;
    }
}
contract FalseToken {
    function mint(address, uint256) external {}
    function approve(address, uint256) external {}
    function transferFrom(address, address, uint256) external pure returns (bool) { return false; }
}`;
  const input = {
    language: 'Solidity',
    sources: { 'T.sol': { content } },
    settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts: { 'T.sol': Record<string, { abi: Abi; evm: { bytecode: { object: string } } }> };
  };
  const pick = (n: string) => ({ abi: out.contracts['T.sol'][n]!.abi, bytecode: `0x${out.contracts['T.sol'][n]!.evm.bytecode.object}` as Hex });
  return { NoBoolToken: pick('NoBoolToken'), FalseToken: pick('FalseToken') };
}
