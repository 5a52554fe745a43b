import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TronWeb, utils, type Types } from 'tronweb';
import { GETBLOCK_66987565, TXINFO_01B4CDE4 } from '@/lib/chain/tron/fixtures/node-responses';
import { startTronNode, type TronNode } from './tron-node';

/**
 * Fidelity of the TRON stand-in, judged from outside our code: every transaction here is built
 * and signed by TronWeb itself, as a payer's wallet would, and the node's answers are read back
 * through TronWeb or raw HTTP. Figures: mainnet USDT costs ~64,285 energy to a holder and ~130,285
 * to a new holder (base 14,650 / 29,650 × (1 + energy_factor 3.4)); a transfer is ~345 bytes.
 */
let node: TronNode;
beforeAll(async () => {
  node = await startTronNode();
});
afterAll(async () => {
  await node?.stop();
});

const fresh = () => {
  const pk = utils.accounts.generateAccount();
  return { privateKey: pk.privateKey, address: pk.address.base58 };
};
const info = (txId: string) =>
  post<Record<string, unknown> & { receipt: Record<string, unknown> }>('/wallet/gettransactioninfobyid', { value: txId });
const hexMsg = (m: unknown) => Buffer.from(String(m ?? ''), 'hex').toString('utf8');
async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${node.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as T;
}
async function usdtOf(tw: TronWeb, who: string): Promise<bigint> {
  const c = await tw.contract().at(node.usdt);
  return BigInt(String(await c.balanceOf(who).call()));
}

describe('TRC-20 USDT paid by TronWeb', () => {
  it("runs the payer's flow, contract().at(usdt).transfer(to, amount).send(), with mainnet-like energy and bandwidth", async () => {
    const payer = fresh();
    const shop = fresh();
    await node.sendTrx(payer.address, 100_000_000);
    await node.mintUsdt(payer.address, 50_000_000n);
    const tw = node.tronWeb(payer.privateKey);
    const usdt = await tw.contract().at(node.usdt);
    expect(Number(await usdt.decimals().call())).toBe(6);

    const first = await usdt.transfer(shop.address, 12_340_000).send({ feeLimit: 100_000_000 });
    const second = await usdt.transfer(shop.address, 1_000_000).send({ feeLimit: 100_000_000 });
    expect(await usdtOf(tw, shop.address)).toBe(13_340_000n);
    expect(await usdtOf(tw, payer.address)).toBe(36_660_000n);

    const a = await info(first);
    const b = await info(second);
    expect(a.receipt.result).toBe('SUCCESS');
    const log = (a.log as { topics: string[]; data: string }[])[0]!;
    expect(log.topics[0]).toBe('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    expect(`41${log.topics[2]!.slice(24)}`).toBe(TronWeb.address.toHex(shop.address).toLowerCase());
    expect(BigInt(`0x${log.data}`)).toBe(12_340_000n);
    // A new holder's balance slot is set (20,000) instead of reset (5,000): 15,000 × 4.4 more energy, as on the TVM.
    expect(Number(a.receipt.energy_usage_total) - Number(b.receipt.energy_usage_total)).toBe(66_000);
    const newHolder = Number(a.receipt.energy_usage_total);
    const holder = Number(b.receipt.energy_usage_total);
    console.log(
      `[tron stand-in] TRC-20 transfer energy: ${newHolder} to a new holder, ${holder} to a holder; bandwidth ${a.receipt.net_usage} bytes`,
    );
    expect(newHolder).toBeGreaterThan(110_000);
    expect(newHolder).toBeLessThan(140_000);
    expect(holder).toBeGreaterThan(50_000);
    expect(holder).toBeLessThan(70_000);
    // The first used the day's free 600 bytes; the second burned 1000 sun per byte.
    expect(a.receipt.net_usage).toBeGreaterThan(300);
    expect(b.receipt.net_fee).toBe(Number(a.receipt.net_usage) * 1000);
    // With no staked energy every unit was burned at 100 sun.
    expect(a.receipt.energy_fee).toBe(newHolder * 100);
  });

  it('sends TRX with TronWeb; a new account costs the 1 TRX creation fee plus 0.1 TRX of bandwidth', async () => {
    const from = fresh();
    const to = fresh();
    await node.sendTrx(from.address, 10_000_000);
    const tw = node.tronWeb(from.privateKey);
    const res = await tw.trx.sendTransaction(to.address, 2_000_000);
    expect(res.result).toBe(true);
    expect(await tw.trx.getBalance(to.address)).toBe(2_000_000);
    expect(await tw.trx.getBalance(from.address)).toBe(10_000_000 - 2_000_000 - 1_100_000);
    const again = await tw.trx.sendTransaction(to.address, 1_000_000);
    expect(again.result).toBe(true);
    // An existing recipient: the sender's free bandwidth pays, nothing is burned.
    expect(await tw.trx.getBalance(from.address)).toBe(10_000_000 - 3_000_000 - 1_100_000);
  });
});

describe('staked bandwidth (java-tron BandwidthProcessor: staked first, then the free 600 bytes, then TRX)', () => {
  it('pays an account creation and transfers past the free 600 bytes from staked bandwidth, burning only the 1 TRX creation fee', async () => {
    const wallet = fresh();
    await node.sendTrx(wallet.address, 20_000_000_000);
    const tw = node.tronWeb(wallet.privateKey);
    const stake = await tw.transactionBuilder.freezeBalanceV2(5_000_000_000, 'BANDWIDTH', wallet.address);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(stake))).result).toBe(true);
    const staked = await tw.trx.getAccountResources(wallet.address);
    // 5,000 TRX of a network's 43.2e9 bytes a day over ~24e9 staked TRX: ~9,000 bytes a day.
    expect(staked.NetLimit).toBeGreaterThan(8_000);
    const freeUsed = staked.freeNetUsed ?? 0;
    const before = await tw.trx.getBalance(wallet.address);

    // Creating an account: staked bandwidth instead of the 0.1 TRX createAccountFee; the 1 TRX system fee stays.
    const created = fresh();
    const createTx = await tw.transactionBuilder.createAccount(created.address, wallet.address);
    const create = await tw.trx.sendRawTransaction(await tw.trx.sign(createTx));
    expect(create.result).toBe(true);
    expect(await tw.trx.getBalance(wallet.address)).toBe(before - 1_000_000);
    expect((await info(create.transaction.txID)).receipt.net_fee).toBeUndefined();

    // Four transfers (~1,000 bytes with their results, past the free 600): all from the stake, none burned.
    for (let i = 0; i < 4; i++) expect((await tw.trx.sendTransaction(created.address, 1_000_000)).result).toBe(true);
    expect(await tw.trx.getBalance(wallet.address)).toBe(before - 1_000_000 - 4_000_000);
    const after = await tw.trx.getAccountResources(wallet.address);
    expect(after.NetUsed).toBeGreaterThan(1_000);
    // The free allowance was not touched (it only recovers).
    expect(after.freeNetUsed ?? 0).toBeLessThanOrEqual(freeUsed);
  });
});

describe('staked energy, delegated and taken back', () => {
  it('delegates staked energy to an account that then transfers USDT without burning TRX, and undelegates', async () => {
    const energyWallet = node.keys.gas;
    const deposit = fresh();
    const tw = node.tronWeb(energyWallet.privateKey);
    await node.mintUsdt(deposit.address, 5_000_000n);

    const stake = await tw.transactionBuilder.freezeBalanceV2(20_000_000_000, 'ENERGY', energyWallet.address);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(stake))).result).toBe(true);
    // Delegating to an account that does not exist is refused, as on mainnet: activate it first.
    const early = await tw.transactionBuilder.delegateResource(15_000_000_000, deposit.address, 'ENERGY', energyWallet.address);
    const refused = await tw.trx.sendRawTransaction(await tw.trx.sign(early));
    expect(refused.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(hexMsg(refused.message)).toMatch(/Account\[41[0-9a-f]{40}\] not exists/);

    const activate = await tw.transactionBuilder.createAccount(deposit.address, energyWallet.address);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(activate))).result).toBe(true);
    const delegate = await tw.transactionBuilder.delegateResource(15_000_000_000, deposit.address, 'ENERGY', energyWallet.address);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(delegate))).result).toBe(true);
    const granted = await tw.trx.getAccountResources(deposit.address);
    expect(granted.EnergyLimit).toBeGreaterThan(130_000);

    const dw = node.tronWeb(deposit.privateKey);
    const usdt = await dw.contract().at(node.usdt);
    // fee_limit caps all the energy a call may use, staked included (VMActuator), so it must cover the transfer.
    const txId = await usdt.transfer(node.keys.hot.address, 5_000_000).send({ feeLimit: 20_000_000 });
    const receipt = (await info(txId)).receipt;
    expect(receipt.result).toBe('SUCCESS');
    expect(receipt.energy_fee).toBeUndefined();
    expect(receipt.energy_usage).toBe(receipt.energy_usage_total);
    expect(await dw.trx.getBalance(deposit.address)).toBe(0);
    expect(await usdtOf(dw, deposit.address)).toBe(0n);

    const undelegate = await tw.transactionBuilder.undelegateResource(15_000_000_000, deposit.address, 'ENERGY', energyWallet.address);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(undelegate))).result).toBe(true);
    expect((await tw.trx.getAccountResources(deposit.address)).EnergyLimit).toBeUndefined();
    expect((await tw.trx.getAccount(energyWallet.address)).account_resource?.delegated_frozenV2_balance_for_energy).toBeUndefined();
  });
});

describe('refusals', () => {
  it('refuses an expired transaction, a wrongly signed one, a tampered one, a bad reference block and a duplicate', async () => {
    const from = fresh();
    await node.sendTrx(from.address, 10_000_000);
    const tw = node.tronWeb(from.privateKey);
    const build = () => tw.transactionBuilder.sendTrx(node.keys.other.address, 1_000_000, from.address);

    const stale = await tw.trx.sign(await build());
    await node.mine(21); // 63 s of blocks: past TronWeb's 60 s expiration
    const expired = await tw.trx.sendRawTransaction(stale);
    expect(expired.code).toBe('TRANSACTION_EXPIRATION_ERROR');

    const other = fresh();
    const wrong = utils.crypto.signTransaction(other.privateKey, await build());
    expect((await tw.trx.sendRawTransaction(wrong)).code).toBe('SIGERROR');

    const signed = await tw.trx.sign(await build());
    const tampered = structuredClone(signed);
    tampered.raw_data.contract[0]!.parameter.value.amount = 9_000_000;
    expect((await tw.trx.sendRawTransaction(tampered)).code).toBe('SIGERROR');

    const head = await tw.trx.getCurrentBlock();
    const badRef = await tw.transactionBuilder.sendTrx(node.keys.other.address, 1_000_000, from.address, {
      blockHeader: {
        ref_block_bytes: head.block_header.raw_data.number.toString(16).slice(-4).padStart(4, '0'),
        ref_block_hash: 'ffffffffffffffff',
        expiration: head.block_header.raw_data.timestamp + 60_000,
        timestamp: head.block_header.raw_data.timestamp,
      },
    });
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(badRef))).code).toBe('TAPOS_ERROR');

    expect((await tw.trx.sendRawTransaction(signed)).result).toBe(true);
    expect((await tw.trx.sendRawTransaction(signed)).code).toBe('DUP_TRANSACTION_ERROR');
  });

  it('fails a USDT transfer from an account with neither energy nor TRX as mainnet does', async () => {
    const deposit = fresh();
    await node.mintUsdt(deposit.address, 7_000_000n);
    const dw = node.tronWeb(deposit.privateKey);
    const usdt = await dw.contract().at(node.usdt);

    // Never activated (it only received TRC-20): the node refuses the broadcast.
    await expect(usdt.transfer(node.keys.hot.address, 7_000_000).send({ feeLimit: 100_000_000 })).rejects.toThrow(/account \[T\w+\] does not exist/);

    // Activated with no TRX: the day's free bandwidth pays the bytes, nothing pays the energy.
    const gw = node.tronWeb(node.keys.gas.privateKey);
    await gw.trx.sendRawTransaction(await gw.trx.sign(await gw.transactionBuilder.createAccount(deposit.address, node.keys.gas.address)));
    const txId = await usdt.transfer(node.keys.hot.address, 7_000_000).send({ feeLimit: 100_000_000 });
    const failed = await info(txId);
    expect(failed.receipt.result).toBe('OUT_OF_ENERGY');
    expect(failed.result).toBe('FAILED');
    expect(failed.log).toBeUndefined();
    expect(await usdtOf(dw, deposit.address)).toBe(7_000_000n);

    // The free bandwidth is spent now, and there is no TRX to burn for the bytes.
    await expect(usdt.transfer(node.keys.hot.address, 7_000_000).send({ feeLimit: 100_000_000 })).rejects.toThrow(
      /Account resource insufficient error/,
    );
  });

  it('stops at fee_limit: the energy it allows is consumed and the transfer fails', async () => {
    const payer = fresh();
    await node.sendTrx(payer.address, 100_000_000);
    await node.mintUsdt(payer.address, 1_000_000n);
    const tw = node.tronWeb(payer.privateKey);
    const usdt = await tw.contract().at(node.usdt);
    const txId = await usdt.transfer(fresh().address, 1_000_000).send({ feeLimit: 2_000_000 });
    const r = await info(txId);
    expect(r.receipt.result).toBe('OUT_OF_ENERGY');
    expect(r.receipt.energy_fee).toBe(2_000_000);
    expect(await usdtOf(tw, payer.address)).toBe(1_000_000n);
  });
});

describe('blacklist', () => {
  it("keeps Tether's isBlackListed and stops a blacklisted sender", async () => {
    const evil = fresh();
    await node.sendTrx(evil.address, 100_000_000);
    await node.mintUsdt(evil.address, 1_000_000n);
    await node.addBlackList(evil.address);
    const tw = node.tronWeb(evil.privateKey);
    const usdt = await tw.contract().at(node.usdt);
    expect(await usdt.isBlackListed(evil.address).call()).toBe(true);
    const txId = await usdt.transfer(node.keys.hot.address, 1_000_000).send({ feeLimit: 100_000_000 });
    expect((await info(txId)).receipt.result).toBe('REVERT');
    expect(await usdtOf(tw, evil.address)).toBe(1_000_000n);
  });
});

describe('answers shaped like java-tron', () => {
  const shape = (o: unknown): unknown =>
    o && typeof o === 'object' && !Array.isArray(o)
      ? Object.fromEntries(
          Object.keys(o)
            .sort()
            .map((k) => [k, shape((o as Record<string, unknown>)[k])]),
        )
      : typeof o;

  it('serves blocks and transaction info with the fields and types of real responses', async () => {
    const block = await post('/wallet/getblock', { id_or_num: '1', detail: false });
    expect(shape(block)).toEqual(shape(GETBLOCK_66987565));
    const payer = fresh();
    await node.sendTrx(payer.address, 100_000_000);
    await node.mintUsdt(payer.address, 1_000_000n);
    const usdt = await node.tronWeb(payer.privateKey).contract().at(node.usdt);
    const ours = (await info(await usdt.transfer(fresh().address, 1_000_000).send({ feeLimit: 100_000_000 }))) as Record<string, unknown>;
    const real = TXINFO_01B4CDE4 as Record<string, unknown>;
    for (const k of ['id', 'fee', 'blockNumber', 'blockTimeStamp', 'contractResult', 'contract_address', 'receipt', 'log'])
      expect(typeof ours[k]).toBe(typeof real[k]);
  });

  it('builds unsigned transactions on /wallet/createtransaction and /wallet/delegateresource that TronWeb signs and the node accepts', async () => {
    const from = node.keys.fee;
    const tw = node.tronWeb(from.privateKey);
    const to = fresh();
    const trx = await post<Types.Transaction>('/wallet/createtransaction', {
      owner_address: from.hex,
      to_address: TronWeb.address.toHex(to.address),
      amount: 1_500_000,
    });
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(trx as Types.Transaction))).result).toBe(true);
    expect(await tw.trx.getBalance(to.address)).toBe(1_500_000);
    await tw.trx.sendRawTransaction(await tw.trx.sign(await tw.transactionBuilder.freezeBalanceV2(5_000_000, 'ENERGY', from.address)));
    const delegate = await post<Types.Transaction>('/wallet/delegateresource', {
      owner_address: from.hex,
      receiver_address: TronWeb.address.toHex(to.address),
      balance: 2_000_000,
      resource: 'ENERGY',
    });
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(delegate))).result).toBe(true);
    const r = await tw.trx.getAccountResources(to.address);
    // 2 TRX's share of the network's daily energy (TotalEnergyLimit / TotalEnergyWeight per staked TRX).
    expect(r.EnergyLimit).toBe(Math.floor((2 * r.TotalEnergyLimit!) / r.TotalEnergyWeight!));
  });
});

describe('the clock moved by a test (warpTo), forward and back, as anvil’s evm_setTime', () => {
  const heads = async () => {
    const tron = node.chain.head.timestamp;
    const evm = await node.chain.rpc<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    return { tron, evm: Number(evm.timestamp) * 1000 };
  };
  /** A USDT transfer signed by TronWeb (expiration from the head's time), mined in the next block: its block time. */
  const payAt = async (payer: { privateKey: string; address: string }, to: string) => {
    const usdt = await node.tronWeb(payer.privateKey).contract().at(node.usdt);
    const txId = await usdt.transfer(to, 1_000_000).send({ feeLimit: 100_000_000 });
    const got = await info(txId);
    expect(got.receipt.result).toBe('SUCCESS');
    return got.blockTimeStamp as number;
  };

  it('jumps weeks ahead, rewinds to the wall clock (block time goes back once), then mines 3 s apart; anvil follows both ways', async () => {
    const payer = fresh();
    const shop = fresh();
    await node.sendTrx(payer.address, 100_000_000);
    await node.mintUsdt(payer.address, 10_000_000n);
    const ahead = Date.now() + 28 * 86_400_000 + 1_234;
    node.warpTo(ahead);
    await node.mine();
    const jumped = Math.ceil(ahead / 3000) * 3000;
    expect(await heads()).toEqual({ tron: jumped, evm: jumped });
    expect(await payAt(payer, shop.address)).toBe(jumped + 3000);

    const wall = Date.now();
    node.warpTo(wall);
    await node.mine();
    const back = Math.ceil(wall / 3000) * 3000;
    expect(await heads()).toEqual({ tron: back, evm: back });
    // After the rewind: blocks 3 s apart from there, transactions accepted and applied (bandwidth, energy) at that time.
    expect(await payAt(payer, shop.address)).toBe(back + 3000);
    await node.mine(2);
    expect(await heads()).toEqual({ tron: back + 9000, evm: back + 9000 });
    expect(await usdtOf(node.tronWeb(payer.privateKey), shop.address)).toBe(2_000_000n);
  });
});
