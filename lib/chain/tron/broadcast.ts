import type { TronNodeClient } from './node-client';
import { isEmptyAnswer, parseTxInfo, type TronTxInfo } from './parse';
import type { SignedTronTx } from './transactions';

/** The node refused the transaction (java-tron's `code`: SIGERROR, TAPOS_ERROR, TRANSACTION_EXPIRATION_ERROR, BANDWITH_ERROR, CONTRACT_VALIDATE_ERROR, …). */
export class TronBroadcastError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'TronBroadcastError';
  }
}

/**
 * Broadcasts the signed transaction. `already-known` (DUP_TRANSACTION_ERROR) is success for a
 * rebroadcast of recorded bytes. Acceptance only means the node pooled it: the outcome comes from
 * `lookupTronTx`, and an unmined transaction from `isSafelyExpired`.
 */
export async function broadcastTronTx(client: TronNodeClient, signed: SignedTronTx): Promise<'accepted' | 'already-known'> {
  const out = await client.wallet<{ result?: boolean; code?: string; message?: string }>('broadcasttransaction', { ...signed.tx });
  if (out.result === true) return 'accepted';
  if (out.code === 'DUP_TRANSACTION_ERROR') return 'already-known';
  const message = out.message && /^[0-9a-f]*$/i.test(out.message) ? Buffer.from(out.message, 'hex').toString('utf8') : (out.message ?? '');
  throw new TronBroadcastError(out.code ?? 'UNKNOWN', message);
}

export type TronTxState = { state: 'unknown' } | { state: 'mined' | 'solidified'; info: TronTxInfo };

/**
 * Where a transaction stands on the node: solidified (final), mined above the solidified block,
 * or unknown (pending, dropped, or never seen: only `isSafelyExpired` can say it will never land).
 */
export async function lookupTronTx(client: TronNodeClient, txId: string): Promise<TronTxState> {
  const solid = await client.solidity('gettransactioninfobyid', { value: txId });
  if (!isEmptyAnswer(solid)) return { state: 'solidified', info: checked(parseTxInfo(solid), txId) };
  const head = await client.wallet('gettransactioninfobyid', { value: txId });
  if (!isEmptyAnswer(head)) return { state: 'mined', info: checked(parseTxInfo(head), txId) };
  return { state: 'unknown' };
}

function checked(info: TronTxInfo, txId: string): TronTxInfo {
  if (info.txId !== txId.toLowerCase()) throw new Error(`asked for ${txId}, the node answered ${info.txId}`);
  return info;
}
