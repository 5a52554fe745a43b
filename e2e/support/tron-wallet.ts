import { expect, type Page } from '@playwright/test';
import { TronWeb, utils } from 'tronweb';
import { formatUnits, parseUnits } from 'viem';
import type { Asset, ChainKey } from '@/lib/config/rails';
import type { ChainClock, PayerWallet } from './payer-wallet';
import { payOnTron } from './pay-rail';
import { STACK_PORT, TRON_KEYS, TRON_PORT, TRON_USDT_ADDRESS } from './stack-env';

const TRON = `http://127.0.0.1:${TRON_PORT}`;
/** TRX (sun) for a payer's calls: approve, authorize and a transfer burn energy (no stake) and bandwidth past the free 600 bytes. */
const GAS_SUN = 1_000_000_000;

const headTime = async (tw: TronWeb) =>
  ((await tw.trx.getCurrentBlock()) as { block_header: { raw_data: { timestamp: number } } }).block_header.raw_data.timestamp;

/** Waits until the transaction is in a block (the e2e stand-in mines every 3 s) and succeeded (a contract call's receipt). */
async function mined(tw: TronWeb, txId: string, call: boolean) {
  type Info = { blockNumber?: number; receipt?: { result?: string } };
  await expect
    .poll(
      async () => {
        const i = (await tw.trx.getUnconfirmedTransactionInfo(txId)) as Info;
        return i.blockNumber ? (call ? (i.receipt?.result ?? 'none') : 'SUCCESS') : 'pending';
      },
      { timeout: 30_000 },
    )
    .toBe('SUCCESS');
}

/** What the checkout's automatic-collection set-up asks a TRON wallet to sign (T… addresses), read from its data-* attributes. */
async function shownTronTerms(page: Page) {
  const approve = page.getByTestId('autocollect-approve');
  const authorize = page.getByTestId('autocollect-authorize');
  const [id, authToken, cap, period, start] = JSON.parse((await authorize.getAttribute('data-args'))!) as [string, string, string, number, string];
  return {
    token: (await approve.getAttribute('data-token'))!,
    spender: (await approve.getAttribute('data-spender'))!,
    amount: (await approve.getAttribute('data-amount'))!,
    collector: (await authorize.getAttribute('data-collector'))!,
    id,
    authToken,
    cap,
    period,
    start,
  };
}

/**
 * A payer's TronLink-like wallet on the stack's TRON stand-in: a fresh key, TRX and USDT from the stack's faucet,
 * calls built, signed and broadcast with TronWeb. `terms` keeps what it last signed (the checkout's values).
 */
export function tronPayerWallet(_chain: ChainKey, asset: Asset): PayerWallet & { terms?: Awaited<ReturnType<typeof shownTronTerms>> } {
  if (asset !== 'USDT') throw new Error(`no ${asset} on the TRON stand-in`);
  const acc = utils.accounts.generateAccount();
  const tw = new TronWeb({ fullHost: TRON, privateKey: acc.privateKey });
  const token = tw.address.fromHex(`41${TRON_USDT_ADDRESS.slice(2)}`) as string;
  const call = async (contract: string, fn: string, params: { type: string; value: unknown }[]) => {
    const { transaction } = await tw.transactionBuilder.triggerSmartContract(contract, fn, { feeLimit: 200_000_000 }, params, acc.address.base58);
    const res = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
    expect(res.result, JSON.stringify(res)).toBe(true);
    await mined(tw, transaction.txID, true);
  };
  const approve = (spender: string, amount: string) =>
    call(token, 'approve(address,uint256)', [
      { type: 'address', value: spender },
      { type: 'uint256', value: amount },
    ]);
  const wallet: PayerWallet & { terms?: Awaited<ReturnType<typeof shownTronTerms>> } = {
    address: acc.address.base58,
    async fund(amount) {
      const faucet = new TronWeb({ fullHost: TRON, privateKey: TRON_KEYS.faucet.slice(2) });
      const trx = await faucet.trx.sendTransaction(acc.address.base58, GAS_SUN);
      expect(trx.result, JSON.stringify(trx)).toBe(true);
      await mined(tw, trx.transaction.txID, false);
      await mined(tw, await payOnTron(acc.address.base58, amount), true);
    },
    pay: (to, amount) =>
      call(token, 'transfer(address,uint256)', [
        { type: 'address', value: to },
        { type: 'uint256', value: parseUnits(amount, 6).toString() },
      ]),
    async signShown(page) {
      const t = await shownTronTerms(page);
      wallet.terms = t;
      await approve(t.spender, t.amount);
      await call(t.collector, 'authorize(bytes32,address,uint256,uint256,uint256)', [
        { type: 'bytes32', value: t.id },
        { type: 'address', value: t.authToken },
        { type: 'uint256', value: t.cap },
        { type: 'uint256', value: t.period },
        { type: 'uint256', value: t.start },
      ]);
    },
    revokeAllowance: () => approve(wallet.terms!.spender, '0'),
    async balance() {
      const usdt = await tw.contract().at(token);
      return formatUnits(BigInt(String(await usdt.balanceOf(acc.address.base58).call())), 6);
    },
  };
  return wallet;
}

/**
 * The stand-in's clock, moved through the stack (POST /tron/warp): `moveTo` makes the next block that time (its anvil
 * follows) and waits for it; `restore` rewinds to the wall clock (block time goes back once), so later TRON payments
 * are not judged after their invoice's expiry. Do not restore with a payer's transaction in flight (docs/tron.md §10).
 */
export function tronClock(_chain: ChainKey): ChainClock {
  const tw = new TronWeb({ fullHost: TRON });
  const warp = async (at: Date) => {
    const res = await fetch(`http://127.0.0.1:${STACK_PORT}/tron/warp?to=${at.getTime()}`, { method: 'POST' });
    expect(res.ok).toBe(true);
  };
  return {
    async moveTo(at) {
      await warp(at);
      await expect.poll(() => headTime(tw), { timeout: 30_000 }).toBeGreaterThanOrEqual(at.getTime());
    },
    async restore() {
      const now = new Date();
      await warp(now);
      // The rewound block is within a slot of `now`; later ones follow 3 s apart.
      await expect.poll(async () => Math.abs((await headTime(tw)) - Date.now()), { timeout: 30_000 }).toBeLessThan(60_000);
    },
  };
}
