import { TronWeb, type Types } from 'tronweb';
import type { TronAddress } from '../common/address-brand';
import { toBase58 } from './address';
import type { TronBlockRef } from './parse';

/**
 * Transactions built and signed by TronWeb, locally: the reference block and expiration are ours
 * (a block we read), so no node builds bytes we would have to trust, and TronWeb checks the
 * txID = sha256(raw_data) before signing.
 */
const tronWeb = new TronWeb({ fullHost: 'http://127.0.0.1:9' }); // never contacted: every builder call gets its block header

export type UnsignedTronTx = Types.Transaction;

export interface SignedTronTx {
  txId: string;
  /** The signed transaction (JSON form): record it before broadcasting, rebroadcast the same. */
  tx: Types.SignedTransaction;
  /** Milliseconds: after this no block can include it. */
  expiration: number;
  /** The block its TaPoS references: blocks after it are the only ones that can hold it. */
  refBlockNumber: number;
}

/** Reference block and expiration (TaPoS): the transaction is valid only on a chain holding `ref`, until `ref.timestamp + lifetimeMs`. */
export function blockHeader(ref: TronBlockRef, lifetimeMs: number) {
  if (lifetimeMs <= 0 || lifetimeMs > 86_400_000) throw new Error('a TRON transaction lives between 0 and 24 h');
  return {
    ref_block_bytes: ref.number.toString(16).padStart(4, '0').slice(-4),
    ref_block_hash: ref.id.slice(16, 32),
    expiration: ref.timestamp + lifetimeMs,
    timestamp: ref.timestamp,
  };
}

interface Common {
  from: string;
  ref: TronBlockRef;
  lifetimeMs: number;
}

/** TRC-20 `transfer(to, amount)` from `from`; `feeLimitSun` caps the TRX burned for energy. */
export async function buildTrc20Transfer(
  q: Common & { token: string; to: TronAddress; amount: bigint; feeLimitSun: number },
): Promise<UnsignedTronTx> {
  const params = [
    { type: 'address', value: toBase58(q.to) },
    { type: 'uint256', value: q.amount.toString() },
  ];
  const options = { feeLimit: q.feeLimitSun, txLocal: true, blockHeader: blockHeader(q.ref, q.lifetimeMs) };
  const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
    toBase58(q.token),
    'transfer(address,uint256)',
    options,
    params,
    toBase58(q.from),
  );
  return transaction;
}

/** TRX transfer (sun); creates and activates `to` if it does not exist (1 TRX + 0.1 TRX or staked bandwidth). */
export function buildTrxTransfer(q: Common & { to: TronAddress; sun: bigint }): Promise<UnsignedTronTx> {
  return tronWeb.transactionBuilder.sendTrx(toBase58(q.to), safe(q.sun), toBase58(q.from), { blockHeader: blockHeader(q.ref, q.lifetimeMs) });
}

/** Activates `account` without giving it TRX (AccountCreateContract; the sender pays 1 TRX). */
export function buildCreateAccount(q: Common & { account: TronAddress }): Promise<UnsignedTronTx> {
  return tronWeb.transactionBuilder.createAccount(toBase58(q.account), toBase58(q.from), { blockHeader: blockHeader(q.ref, q.lifetimeMs) });
}

/** Stakes `sun` for a resource (Stake 2.0). */
export function buildStake(q: Common & { sun: bigint; resource: 'ENERGY' | 'BANDWIDTH' }): Promise<UnsignedTronTx> {
  return tronWeb.transactionBuilder.freezeBalanceV2(safe(q.sun), q.resource, toBase58(q.from), { blockHeader: blockHeader(q.ref, q.lifetimeMs) });
}

/** Delegates the resource of `sun` staked TRX to `to` (unlocked: it can be taken back at once). */
export function buildDelegate(q: Common & { to: TronAddress; sun: bigint; resource: 'ENERGY' | 'BANDWIDTH' }): Promise<UnsignedTronTx> {
  return tronWeb.transactionBuilder.delegateResource(safe(q.sun), toBase58(q.to), q.resource, toBase58(q.from), false, undefined, {
    blockHeader: blockHeader(q.ref, q.lifetimeMs),
  });
}

/** Takes back a delegation made with `buildDelegate`. */
export function buildUndelegate(q: Common & { to: TronAddress; sun: bigint; resource: 'ENERGY' | 'BANDWIDTH' }): Promise<UnsignedTronTx> {
  return tronWeb.transactionBuilder.undelegateResource(safe(q.sun), toBase58(q.to), q.resource, toBase58(q.from), {
    blockHeader: blockHeader(q.ref, q.lifetimeMs),
  });
}

/** Signs with TronWeb (which refuses a key that is not the owner's and a txID that is not sha256(raw_data)). */
export async function signTronTx(tx: UnsignedTronTx, privateKey: string, refBlockNumber: number): Promise<SignedTronTx> {
  const signed = await tronWeb.trx.sign(tx, privateKey);
  return { txId: signed.txID, tx: signed, expiration: signed.raw_data.expiration, refBlockNumber };
}

function safe(sun: bigint): number {
  if (sun <= 0n || sun > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`amount out of range: ${sun} sun`);
  return Number(sun);
}

/**
 * A smart contract call (`fn` its signature, e.g. `collect(bytes32,address,uint256,address)`) from `from`, its
 * arguments as `params` or already encoded (`rawParameter`: the words after the selector, to sign a recorded call
 * again); `feeLimitSun` caps its energy.
 */
export async function buildContractCall(
  q: Common & { contract: string; fn: string; params: { type: string; value: unknown }[]; rawParameter?: string; feeLimitSun: number },
): Promise<UnsignedTronTx> {
  const options = {
    feeLimit: q.feeLimitSun,
    txLocal: true,
    blockHeader: blockHeader(q.ref, q.lifetimeMs),
    ...(q.rawParameter ? { rawParameter: q.rawParameter } : {}),
  };
  const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(toBase58(q.contract), q.fn, options, q.params, toBase58(q.from));
  return transaction;
}
