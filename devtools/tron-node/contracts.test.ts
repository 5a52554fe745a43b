import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TronWeb, utils } from 'tronweb';
import { keccak256, type Hex } from 'viem';
import collector from '@/lib/chain/evm/collector/collector.json' with { type: 'json' };
import { startTronNode, type TronNode } from './tron-node';

/**
 * Contracts deployed on the stand-in and calls between them (issue 48 §2), judged from outside with TronWeb: the
 * gateway's SubscriptionCollector (the Solidity the EVM rails use, compiled by solc; its artifact test keeps the two
 * equal) is deployed with CreateSmartContract, a payer approves the USDT and authorizes a subscription, the operator
 * pulls through collector → USDT. Energy follows java-tron: deployment = init code + 200 per byte of runtime code;
 * each frame priced with its own contract's dynamic factor (collector 0, USDT 3.4); the owner's share per
 * consume_user_resource_percent / origin_energy_limit.
 */
let node: TronNode;
beforeAll(async () => {
  node = await startTronNode();
});
afterAll(async () => {
  await node?.stop();
});

type Receipt = Record<string, number | string | undefined>;
type Info = { receipt: Receipt; contract_address?: string; contractResult?: string[]; fee?: number; result?: string; log?: unknown[] };
const fresh = () => {
  const a = utils.accounts.generateAccount();
  return { privateKey: a.privateKey, address: a.address.base58, hex: a.address.hex.toLowerCase() };
};
async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${node.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as T;
}
const info = (txId: string) => post<Info>('/wallet/gettransactioninfobyid', { value: txId });
const DAY = 86_400;
const USDT = 1_000_000n;

/** Deploys the collector as `owner`, TronWeb-built and signed; returns the address and the deployment's info. */
async function deployCollector(
  owner: ReturnType<typeof fresh>,
  opts: { admin: string; operator: string; userPercent: number; originEnergyLimit: number },
) {
  const tw = node.tronWeb(owner.privateKey);
  const tx = await tw.transactionBuilder.createSmartContract(
    {
      abi: collector.abi as never,
      bytecode: collector.bytecode.replace(/^0x/, ''),
      feeLimit: 1_000_000_000,
      userFeePercentage: opts.userPercent,
      originEnergyLimit: opts.originEnergyLimit,
      parameters: [opts.admin, opts.operator],
      name: 'SubscriptionCollector',
    },
    owner.address,
  );
  const sent = await tw.trx.sendRawTransaction(await tw.trx.sign(tx));
  expect(sent.result).toBe(true);
  return {
    address: TronWeb.address.fromHex((tx as unknown as { contract_address: string }).contract_address),
    txId: tx.txID,
    info: await info(tx.txID),
  };
}

/** Sends a collector call signed by `who`; returns its transaction info (the node mines at once). */
async function call(
  who: ReturnType<typeof fresh>,
  contract: string,
  fn: string,
  params: { type: string; value: unknown }[],
  feeLimit = 1_000_000_000,
) {
  const tw = node.tronWeb(who.privateKey);
  const { transaction } = await tw.transactionBuilder.triggerSmartContract(contract, fn, { feeLimit }, params, who.address);
  const sent = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
  expect(sent.result).toBe(true);
  return info(transaction.txID);
}

async function usdtOf(who: string): Promise<bigint> {
  const c = await node.tronWeb(fresh().privateKey).contract().at(node.usdt);
  return BigInt(String(await c.balanceOf(who).call()));
}

async function stakeEnergy(who: ReturnType<typeof fresh>, sun: number) {
  const tw = node.tronWeb(who.privateKey);
  const stake = await tw.transactionBuilder.freezeBalanceV2(sun, 'ENERGY', who.address);
  expect((await tw.trx.sendRawTransaction(await tw.trx.sign(stake))).result).toBe(true);
}

const subId = (n: string) => keccak256(Buffer.from(n) as unknown as Hex);
const chainNow = async () =>
  Math.floor(
    Number((await post<{ block_header: { raw_data: { timestamp: number } } }>('/wallet/getnowblock', {})).block_header.raw_data.timestamp) / 1000,
  );

describe('contracts on the stand-in: the subscription collector pulling USDT', () => {
  it('deploys at the address java-tron derives, charges init code + 200 energy per code byte, and serves getcontract', async () => {
    const owner = fresh();
    await node.sendTrx(owner.address, 2_000_000_000);
    const admin = fresh();
    const {
      address,
      txId,
      info: d,
    } = await deployCollector(owner, { admin: admin.address, operator: owner.address, userPercent: 100, originEnergyLimit: 10_000_000 });
    // WalletUtil.generateContractAddress: keccak256(txID ‖ owner), last 20 bytes behind 0x41.
    const derived = `41${keccak256(`0x${txId}${owner.hex}`).slice(-40)}`;
    expect(TronWeb.address.toHex(address).toLowerCase()).toBe(derived);
    expect(d.contract_address).toBe(derived);
    expect(d.receipt.result).toBe('SUCCESS');
    const runtime = d.contractResult![0]!;
    const total = Number(d.receipt.energy_usage_total);
    console.log(
      `[tron stand-in] collector deployment: ${total} energy (${total - (runtime.length / 2) * 200} init code + ${runtime.length / 2} code bytes × 200), bandwidth ${d.receipt.net_usage ?? Number(d.receipt.net_fee) / 1000} bytes`,
    );
    expect(total).toBe(1_189_223);
    expect(runtime.length / 2).toBe(5_726);
    expect(d.receipt.energy_fee).toBe(total * 100);
    expect(d.receipt.energy_penalty_total).toBeUndefined();

    const got = await post<Record<string, unknown>>('/wallet/getcontract', { value: derived });
    expect(got).toMatchObject({
      origin_address: owner.hex,
      contract_address: derived,
      consume_user_resource_percent: 100,
      origin_energy_limit: 10_000_000,
    });
    expect(String(got.bytecode)).toBe(collector.bytecode.slice(2) + String(got.bytecode).slice(collector.bytecode.length - 2));
    const c = await node.tronWeb(admin.privateKey).contract().at(address);
    expect(TronWeb.address.fromHex(String(await c.admin().call()))).toBe(admin.address);
    const state = await post<{ contract_state: { energy_factor: number } }>('/wallet/getcontractinfo', { value: derived });
    expect(state.contract_state.energy_factor).toBe(0);

    // /wallet/deploycontract builds the transaction (bytecode + parameter); TronWeb signs it and the node deploys it
    // at the address the builder announced.
    const parameter = [admin.hex, owner.hex].map((h) => h.slice(2).padStart(64, '0')).join('');
    const built = await post<{
      txID: string;
      contract_address: string;
      raw_data: { contract: { type: string; parameter: { value: { new_contract: { bytecode: string } } } }[] };
    }>('/wallet/deploycontract', {
      owner_address: owner.hex,
      abi: JSON.stringify(collector.abi),
      bytecode: collector.bytecode.slice(2),
      parameter,
      fee_limit: 1_000_000_000,
      consume_user_resource_percent: 0,
      origin_energy_limit: 1,
      name: 'SubscriptionCollector',
    });
    expect(built.raw_data.contract[0]!.type).toBe('CreateSmartContract');
    expect(built.raw_data.contract[0]!.parameter.value.new_contract.bytecode).toBe(collector.bytecode.slice(2) + parameter);
    expect(built.contract_address).toBe(`41${keccak256(`0x${built.txID}${owner.hex}`).slice(-40)}`);
    const tw = node.tronWeb(owner.privateKey);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(built as never))).result).toBe(true);
    const second = await info(built.txID);
    expect(second.receipt.result).toBe('SUCCESS');
    expect(second.contract_address).toBe(built.contract_address);
    expect(second.receipt.energy_usage_total).toBe(total);

    // A fee_limit below the deployment's energy: OUT_OF_ENERGY, the whole limit burned, no contract.
    const short = await tw.transactionBuilder.createSmartContract(
      { abi: collector.abi as never, bytecode: collector.bytecode.slice(2), feeLimit: 50_000_000, parameters: [admin.address, owner.address] },
      owner.address,
    );
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(short))).result).toBe(true);
    const ooe = await info(short.txID);
    expect(ooe.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_usage_total: 500_000, energy_fee: 50_000_000 });
    expect(await post('/wallet/getcontract', { value: (short as unknown as { contract_address: string }).contract_address })).toEqual({});
  });

  it('pulls a period through collector → USDT with each frame priced at its own factor; over-cap, early, revoked and unallowed pulls REVERT and burn energy', async () => {
    const gateway = fresh();
    const operator = fresh();
    const payer = fresh();
    const shop = fresh();
    for (const a of [gateway, operator, payer]) await node.sendTrx(a.address, 2_000_000_000);
    await node.sendTrx(shop.address, 1_000_000);
    await node.mintUsdt(payer.address, 100n * USDT);
    await node.mintUsdt(shop.address, 1n);
    const { address: col } = await deployCollector(gateway, {
      admin: gateway.address,
      operator: operator.address,
      userPercent: 100,
      originEnergyLimit: 10_000_000,
    });

    const allow = await call(gateway, col, 'setDepositAllowed(address,bool)', [
      { type: 'address', value: shop.address },
      { type: 'bool', value: true },
    ]);
    expect(allow.receipt.result).toBe('SUCCESS');
    const tw = node.tronWeb(payer.privateKey);
    const usdt = await tw.contract().at(node.usdt);
    const approveId = await usdt.approve(col, (2n ** 256n - 1n).toString()).send({ feeLimit: 100_000_000 });
    const approve = await info(approveId);
    const now = await chainNow();
    const sub = subId('sub-1');
    const authorize = await call(payer, col, 'authorize(bytes32,address,uint256,uint256,uint256)', [
      { type: 'bytes32', value: sub },
      { type: 'address', value: node.usdt },
      { type: 'uint256', value: (10n * USDT).toString() },
      { type: 'uint256', value: 30 * DAY },
      { type: 'uint256', value: now },
    ]);
    expect(authorize.receipt.result).toBe('SUCCESS');

    const collect = (amount: bigint, to = shop.address, id = sub) =>
      call(operator, col, 'collect(bytes32,address,uint256,address)', [
        { type: 'bytes32', value: id },
        { type: 'address', value: payer.address },
        { type: 'uint256', value: amount.toString() },
        { type: 'address', value: to },
      ]);
    // The USDT's frame alone, as if the collector called transferFrom directly: its penalty is the whole pull's
    // (the collector's frame runs at factor 0).
    const direct = await post<{ energy_used: number; energy_penalty: number }>('/wallet/triggerconstantcontract', {
      owner_address: TronWeb.address.toHex(col),
      contract_address: TronWeb.address.toHex(node.usdt),
      function_selector: 'transferFrom(address,address,uint256)',
      parameter: [payer.hex, shop.hex].map((h) => h.slice(2).padStart(64, '0')).join('') + (10n * USDT).toString(16).padStart(64, '0'),
    });
    const pulled = await collect(10n * USDT);
    expect(pulled.receipt.result).toBe('SUCCESS');
    expect(await usdtOf(shop.address)).toBe(10n * USDT + 1n);
    expect(await usdtOf(payer.address)).toBe(90n * USDT);
    // Both contracts' events: USDT's Transfer, then the collector's Collected.
    expect(pulled.log).toHaveLength(2);
    const total = Number(pulled.receipt.energy_usage_total);
    const penalty = Number(pulled.receipt.energy_penalty_total);
    console.log(
      `[tron stand-in] approve ${approve.receipt.energy_usage_total}, authorize ${authorize.receipt.energy_usage_total}, collect ${total} (penalty ${penalty}: USDT's frame at factor 3.4, the collector's at 0)`,
    );
    expect([approve.receipt.energy_usage_total, authorize.receipt.energy_usage_total, total, penalty]).toEqual([98_715, 70_231, 70_562, 46_003]);
    expect(pulled.receipt.energy_fee).toBe(total * 100);
    expect(penalty).toBe(direct.energy_penalty);
    console.log(
      `[tron stand-in] of which the USDT frame ${direct.energy_used}, the collector frame ${total - direct.energy_used}; pull bandwidth ${pulled.receipt.net_usage ?? Number(pulled.receipt.net_fee) / 1000} bytes`,
    );

    const failed = async (p: Promise<Info>) => {
      const r = await p;
      expect(r.receipt.result).toBe('REVERT');
      expect(r.result).toBe('FAILED');
      expect(Number(r.receipt.energy_usage_total)).toBeGreaterThan(0);
      expect(r.receipt.energy_fee).toBe(Number(r.receipt.energy_usage_total) * 100);
      return Number(r.receipt.energy_usage_total);
    };
    // Into an address holding no USDT yet (a fresh deposit address): its balance slot is set, 15,000 × 4.4 more.
    const fresh2 = fresh();
    const sub2 = subId('sub-2');
    await call(gateway, col, 'setDepositAllowed(address,bool)', [
      { type: 'address', value: fresh2.address },
      { type: 'bool', value: true },
    ]);
    await call(payer, col, 'authorize(bytes32,address,uint256,uint256,uint256)', [
      { type: 'bytes32', value: sub2 },
      { type: 'address', value: node.usdt },
      { type: 'uint256', value: (10n * USDT).toString() },
      { type: 'uint256', value: 30 * DAY },
      { type: 'uint256', value: now },
    ]);
    const toFresh = await collect(10n * USDT, fresh2.address, sub2);
    expect(toFresh.receipt.result).toBe('SUCCESS');
    console.log(`[tron stand-in] collect into a fresh address ${toFresh.receipt.energy_usage_total}`);
    expect(toFresh.receipt.energy_usage_total).toBe(total + 66_000);
    expect(await usdtOf(fresh2.address)).toBe(10n * USDT);
    expect(await usdtOf(payer.address)).toBe(80n * USDT);

    const overCap = await failed(collect(1n));
    const unallowed = await failed(collect(1n, payer.address));
    const later = subId('sub-later');
    await call(payer, col, 'authorize(bytes32,address,uint256,uint256,uint256)', [
      { type: 'bytes32', value: later },
      { type: 'address', value: node.usdt },
      { type: 'uint256', value: (10n * USDT).toString() },
      { type: 'uint256', value: 30 * DAY },
      { type: 'uint256', value: now + DAY },
    ]);
    const early = await failed(collect(1n, shop.address, later));
    const revoke = await call(payer, col, 'revoke(bytes32)', [{ type: 'bytes32', value: sub }]);
    expect(revoke.receipt.result).toBe('SUCCESS');
    await node.mine(1);
    const revoked = await failed(collect(1n));
    console.log(`[tron stand-in] reverted pulls: over cap ${overCap}, unallowed ${unallowed}, early ${early}, revoked ${revoked} energy`);
    expect([overCap, unallowed, early, revoked]).toEqual([2_000, 855, 1_284, 1_150]);
    expect(await usdtOf(shop.address)).toBe(10n * USDT + 1n);
    expect(await usdtOf(payer.address)).toBe(80n * USDT);
  });

  it("charges the contract owner's staked energy per consume_user_resource_percent, capped by origin_energy_limit", async () => {
    const gateway = fresh();
    const payer = fresh();
    await node.sendTrx(gateway.address, 50_000_000_000);
    await node.sendTrx(payer.address, 2_000_000_000);
    const auth = (col: string, id: string) =>
      call(payer, col, 'authorize(bytes32,address,uint256,uint256,uint256)', [
        { type: 'bytes32', value: subId(id) },
        { type: 'address', value: node.usdt },
        { type: 'uint256', value: USDT.toString() },
        { type: 'uint256', value: DAY },
        { type: 'uint256', value: 0 },
      ]);
    const free = await deployCollector(gateway, { admin: gateway.address, operator: gateway.address, userPercent: 0, originEnergyLimit: 10_000_000 });
    const capped = await deployCollector(gateway, { admin: gateway.address, operator: gateway.address, userPercent: 40, originEnergyLimit: 5_000 });
    // Staked after the deployments (which burn TRX), so its whole day's energy is left for the calls.
    await stakeEnergy(gateway, 40_000_000_000);
    // 0%: the owner pays all from its stake; the caller burns nothing.
    const a = await auth(free.address, 'a');
    expect(a.receipt.result).toBe('SUCCESS');
    expect(a.receipt.origin_energy_usage).toBe(a.receipt.energy_usage_total);
    expect(a.receipt.energy_fee).toBeUndefined();
    // 40% with a 5,000 limit: the owner pays min(60% of the energy, 5,000), the caller the rest.
    const b = await auth(capped.address, 'b');
    const total = Number(b.receipt.energy_usage_total);
    expect(b.receipt.origin_energy_usage).toBe(Math.min(Math.floor((total * 60) / 100), 5_000));
    expect(b.receipt.energy_fee).toBe((total - Number(b.receipt.origin_energy_usage)) * 100);
    // The owner calling its own contract pays it all itself (from its stake here).
    const own = await call(gateway, capped.address, 'setDepositAllowed(address,bool)', [
      { type: 'address', value: payer.address },
      { type: 'bool', value: true },
    ]);
    expect(own.receipt.origin_energy_usage).toBeUndefined();
    expect(own.receipt.energy_usage).toBe(own.receipt.energy_usage_total);
  });
});
