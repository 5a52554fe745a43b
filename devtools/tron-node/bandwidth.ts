import { toBase58 } from './address';
import type { Account, Ledger } from './ledger';

/** A refusal as java-tron's broadcast reports it (framework/.../Wallet.java broadcastTransaction). */
export class BroadcastError extends Error {
  constructor(
    readonly code:
      | 'SIGERROR'
      | 'CONTRACT_VALIDATE_ERROR'
      | 'BANDWITH_ERROR'
      | 'DUP_TRANSACTION_ERROR'
      | 'TAPOS_ERROR'
      | 'TRANSACTION_EXPIRATION_ERROR'
      | 'OTHER_ERROR',
    message: string,
  ) {
    super(message);
  }
}

export const validateError = (m: string) => new BroadcastError('CONTRACT_VALIDATE_ERROR', `Contract validate error : ${m}`);

/** How a transaction's bytes are paid (BandwidthProcessor.consume). */
export type NetBill = { kind: 'staked' | 'free' | 'burn' | 'create-staked' | 'create-burn'; bytes: number; fee: bigint };

/** Bytes charged: the Transaction message without `ret`, plus 64 bytes of result per contract. */
export const billedBytes = (size: number) => size + 64;

/**
 * Plans the bandwidth charge without applying it: staked bandwidth, then the daily free 600,
 * then TRX at 1000 sun/byte; a transaction creating an account uses staked bandwidth or burns
 * 0.1 TRX and never the free allowance. Throws as java-tron does.
 */
export function planNet(ledger: Ledger, owner: string, acc: Account | undefined, bytes: number, createsAccount: boolean, now: number): NetBill {
  const p = ledger.params;
  if (!acc) throw validateError(`account [${toBase58(owner)}] does not exist`);
  if (createsAccount) {
    if (ledger.netLeft(acc, now) >= bytes) return { kind: 'create-staked', bytes, fee: 0n };
    if (acc.balance >= BigInt(p.createAccountFee)) return { kind: 'create-burn', bytes, fee: BigInt(p.createAccountFee) };
    throw new BroadcastError('BANDWITH_ERROR', 'Account resource insufficient error.');
  }
  if (ledger.netLeft(acc, now) >= bytes) return { kind: 'staked', bytes, fee: 0n };
  if (ledger.freeNetLeft(acc, now) >= bytes) return { kind: 'free', bytes, fee: 0n };
  const fee = BigInt(p.transactionFee * bytes);
  if (acc.balance >= fee) return { kind: 'burn', bytes, fee };
  throw new BroadcastError('BANDWITH_ERROR', 'Account resource insufficient error.');
}

export function commitNet(ledger: Ledger, acc: Account, bill: NetBill, now: number) {
  if (bill.kind === 'staked' || bill.kind === 'create-staked') {
    acc.netUsage = ledger.recovered(acc.netUsage, acc.netTime, now) + bill.bytes;
    acc.netTime = now;
  } else if (bill.kind === 'free') {
    acc.freeNetUsage = ledger.recovered(acc.freeNetUsage, acc.freeNetTime, now) + bill.bytes;
    acc.freeNetTime = now;
  }
  acc.balance -= bill.fee;
}
