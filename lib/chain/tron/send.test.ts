import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utils } from 'tronweb';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { startTronNode, type TronNode } from '@/devtools/tron-node/tron-node';
import { TronBroadcastError, broadcastTronTx, lookupTronTx } from './broadcast';
import { tronDepositKey } from './deposit-key';
import { isSafelyExpired } from './expiry';
import { tronNodeClient, type TronNodeClient } from './node-client';
import { readTronHeads } from './read-chain';
import { estimateTrc20Transfer, isBlackListed, readTronAccount } from './resources';
import {
  buildCreateAccount,
  buildDelegate,
  buildStake,
  buildTrc20Transfer,
  buildTrxTransfer,
  buildUndelegate,
  signTronTx,
  type UnsignedTronTx,
} from './transactions';

let node: TronNode;
let client: TronNodeClient;
beforeAll(async () => {
  node = await startTronNode();
  client = tronNodeClient({ url: node.url });
});
afterAll(async () => {
  await node?.stop();
});

const LIFETIME = 120_000;
/** Signs against the current head as reference block, broadcasts, returns the signed transaction. */
async function send(build: (ref: Awaited<ReturnType<typeof readTronHeads>>['head']) => Promise<UnsignedTronTx>, key: string) {
  const { head } = await readTronHeads(client);
  const signed = await signTronTx(await build(head), key, head.number);
  await broadcastTronTx(client, signed);
  return signed;
}
const usdtBalance = async (who: string) =>
  BigInt(String(await (await node.tronWeb(node.keys.other.privateKey).contract().at(node.usdt)).balanceOf(who).call()));

describe('sending TRC-20 and TRX with TronWeb-signed transactions', () => {
  it('sends USDT from the hot wallet, finds it mined, then solidified, and treats a rebroadcast as already known', async () => {
    const hot = node.keys.hot;
    await node.mintUsdt(hot.address, 10_000_000n);
    const to = TRON_ADDRESS_CODEC.parse(utils.accounts.generateAccount().address.base58);
    const { energy } = await estimateTrc20Transfer(client, { token: node.usdt, from: hot.address, to, amount: 2_500_000n });
    const signed = await send(
      (ref) => buildTrc20Transfer({ token: node.usdt, from: hot.hex, to, amount: 2_500_000n, feeLimitSun: 30_000_000, ref, lifetimeMs: LIFETIME }),
      hot.privateKey,
    );
    const mined = await lookupTronTx(client, signed.txId);
    expect(mined.state).toBe('mined');
    if (mined.state === 'unknown') throw new Error('unreachable');
    expect(mined.info).toMatchObject({ ok: true, contractRet: 'SUCCESS', energyTotal: energy });
    expect(await usdtBalance(to)).toBe(2_500_000n);
    await node.mine(19);
    expect((await lookupTronTx(client, signed.txId)).state).toBe('solidified');
    expect(await broadcastTronTx(client, signed)).toBe('already-known');
  });

  it('sends TRX and reports a refused broadcast with its code', async () => {
    const to = TRON_ADDRESS_CODEC.parse(utils.accounts.generateAccount().address.base58);
    await send((ref) => buildTrxTransfer({ from: node.keys.hot.hex, to, sun: 3_000_000n, ref, lifetimeMs: LIFETIME }), node.keys.hot.privateKey);
    expect((await readTronAccount(client, to)).balanceSun).toBe(3_000_000n);
    const poor = utils.accounts.generateAccount();
    await node.sendTrx(poor.address.base58, 1_000_000);
    const err = await send(
      (ref) => buildTrxTransfer({ from: poor.address.base58, to, sun: 5_000_000n, ref, lifetimeMs: LIFETIME }),
      poor.privateKey,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(TronBroadcastError);
    expect(err.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(err.message).toMatch(/balance is not sufficient/);
  });

  it('reads the USDT blacklist', async () => {
    const evil = utils.accounts.generateAccount().address.base58;
    expect(await isBlackListed(client, node.usdt, evil)).toBe(false);
    await node.addBlackList(evil);
    expect(await isBlackListed(client, node.usdt, evil)).toBe(true);
  });
});

describe('a sweep paid with delegated energy', () => {
  it('activates the deposit address, delegates energy, sweeps the USDT and takes the energy back', async () => {
    const gas = node.keys.gas;
    const deposit = tronDepositKey(DEV_MNEMONIC, 7);
    await node.mintUsdt(deposit.address, 25_000_000n);
    expect((await readTronAccount(client, deposit.address)).activated).toBe(false);
    const gasBefore = (await readTronAccount(client, gas.address)).balanceSun;

    const gasTxs = [
      await send((ref) => buildStake({ from: gas.hex, sun: 20_000_000_000n, resource: 'ENERGY', ref, lifetimeMs: LIFETIME }), gas.privateKey),
    ];
    const { energy } = await estimateTrc20Transfer(client, {
      token: node.usdt,
      from: deposit.hex,
      to: TRON_ADDRESS_CODEC.parseStored(node.keys.hot.hex),
      amount: 25_000_000n,
    });
    const perTrx = (await readTronAccount(client, gas.address)).energyPerTrx;
    const delegateSun = BigInt(Math.ceil(energy / perTrx) + 1) * 1_000_000n;
    const activation = await send((ref) => buildCreateAccount({ from: gas.hex, account: deposit.hex, ref, lifetimeMs: LIFETIME }), gas.privateKey);
    gasTxs.push(activation);
    gasTxs.push(
      await send(
        (ref) => buildDelegate({ from: gas.hex, to: deposit.hex, sun: delegateSun, resource: 'ENERGY', ref, lifetimeMs: LIFETIME }),
        gas.privateKey,
      ),
    );
    const granted = await readTronAccount(client, deposit.address);
    expect(granted).toMatchObject({ activated: true, balanceSun: 0n });
    expect(granted.energyLimit).toBeGreaterThanOrEqual(energy);

    const sweep = await send(
      (ref) =>
        buildTrc20Transfer({
          token: node.usdt,
          from: deposit.hex,
          to: TRON_ADDRESS_CODEC.parseStored(node.keys.hot.hex),
          amount: 25_000_000n,
          feeLimitSun: energy * 100,
          ref,
          lifetimeMs: LIFETIME,
        }),
      deposit.privateKey,
    );
    const done = await lookupTronTx(client, sweep.txId);
    if (done.state === 'unknown') throw new Error('sweep not mined');
    expect(done.info).toMatchObject({ ok: true, fee: 0n });
    expect(await usdtBalance(deposit.address)).toBe(0n);

    gasTxs.push(
      await send(
        (ref) => buildUndelegate({ from: gas.hex, to: deposit.hex, sun: delegateSun, resource: 'ENERGY', ref, lifetimeMs: LIFETIME }),
        gas.privateKey,
      ),
    );
    expect((await readTronAccount(client, deposit.address)).energyLimit).toBe(0);
    const gasAfter = await readTronAccount(client, gas.address);
    // Every sun the energy wallet lost is a fee its transactions report: 1 TRX + 0.1 TRX to create the account, and the
    // bandwidth its own transactions burned once the day's free 600 bytes were used.
    const fees = await Promise.all(gasTxs.map(async (t) => ((await lookupTronTx(client, t.txId)) as { info: { fee: bigint } }).info.fee));
    expect(fees[1]).toBe(1_100_000n);
    expect(gasBefore - gasAfter.balanceSun - 20_000_000_000n).toBe(fees.reduce((a, b) => a + b, 0n));
    const spent = Number(gasBefore - gasAfter.balanceSun - 20_000_000_000n) / 1e6;
    console.log(
      `[tron sweep] energy ${energy} (${delegateSun / 1_000_000n} TRX delegated at ${perTrx.toFixed(2)} energy/TRX); TRX burned: ${spent} by the energy wallet (activation 1.1 + its bandwidth), 0 by the deposit`,
    );
  });
});

describe('re-signing only what can never be mined', () => {
  it('is safely expired only once the solidified chain is past the expiration without it', async () => {
    const hot = node.keys.hot;
    const to = TRON_ADDRESS_CODEC.parse(utils.accounts.generateAccount().address.base58);
    node.setPacking(false);
    let signed;
    try {
      signed = await send((ref) => buildTrxTransfer({ from: hot.hex, to, sun: 1_000_000n, ref, lifetimeMs: 30_000 }), hot.privateKey);
      expect(await isSafelyExpired(signed, client)).toBe(false);
      await node.mine(11); // 33 s: the head is past the expiration, the solidified block is not
      expect((await readTronHeads(client)).head.timestamp).toBeGreaterThan(signed.expiration);
      expect(await isSafelyExpired(signed, client)).toBe(false);
    } finally {
      node.setPacking(true);
    }
    await node.mine(19);
    expect(await isSafelyExpired(signed, client)).toBe(true);
    expect((await lookupTronTx(client, signed.txId)).state).toBe('unknown');
    // Too late to land now: the node refuses the old bytes.
    await expect(broadcastTronTx(client, signed)).rejects.toMatchObject({ code: 'TRANSACTION_EXPIRATION_ERROR' });

    const landed = await send((ref) => buildTrxTransfer({ from: hot.hex, to, sun: 1_000_000n, ref, lifetimeMs: 30_000 }), hot.privateKey);
    await node.mine(30);
    expect(await isSafelyExpired(landed, client)).toBe(false);
  });
});
