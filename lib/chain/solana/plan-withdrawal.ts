import type { Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getTokenDecoder } from '@solana-program/token';
import { associatedTokenAccount } from './associated-token-account';
import type { SolanaDestinationRefusal } from './destination-rule';
import { judgeSolanaPayee } from './judge-payee';
import type { SolanaSweepPlan } from './plan-sweep';
import { readSolanaAccount } from './read-account';
import type { SolanaRpc } from './rpc';
import { WITHDRAWAL_SIGNATURES_LAMPORTS } from './withdrawal-cost';

const TOKEN_ACCOUNT_SIZE = 165;
const FROZEN = 2;

/** A withdrawal's transfer (the sweep plan's shape: the hot wallet's ATA as source, never closed), for buildSolanaWithdrawal. */
export type SolanaWithdrawalPlan = SolanaSweepPlan;

export type SolanaWithdrawalDecision =
  | { kind: 'send'; plan: SolanaWithdrawalPlan }
  /** The hot or gas wallet cannot pay it now (a reason the owner sees); nothing is decided against the withdrawal. */
  | { kind: 'wait'; reason: string }
  /** The destination cannot receive it: the withdrawal fails and its money goes back. */
  | { kind: 'fail'; code: SolanaDestinationRefusal; reason: string };

/**
 * Reads, right before signing, what sending `amount` of `mint` from the hot wallet to `destination` needs
 * (docs/solana.md §6.2): the destination judged again (it may have been frozen, closed or re-owned since the
 * withdrawal was accepted), its associated token account (created by the transfer when missing, its rent paid by
 * the gas wallet as fee payer), the hot wallet's token account and the gas wallet's SOL, and a `confirmed`
 * blockhash. Every read is at `confirmed`; a failed read throws.
 */
export async function planSolanaWithdrawal(
  rpc: SolanaRpc,
  q: { hot: Address; gas: Address; mint: Address; decimals: number; symbol: string; destination: string; amount: bigint },
): Promise<SolanaWithdrawalDecision> {
  const payee = await judgeSolanaPayee(rpc, q.destination, q.mint);
  if (!payee.ok) return { kind: 'fail', code: payee.code, reason: `The destination cannot receive ${q.symbol}: ${payee.reason}.` };
  const source = await associatedTokenAccount(q.hot, q.mint);
  const [sourceAccount, gas] = await Promise.all([readSolanaAccount(rpc, source), rpc.call('getBalance', [q.gas, { commitment: 'confirmed' }])]);
  const from =
    sourceAccount && sourceAccount.owner === TOKEN_PROGRAM_ADDRESS && sourceAccount.data.length === TOKEN_ACCOUNT_SIZE
      ? getTokenDecoder().decode(sourceAccount.data)
      : null;
  const held = from && from.mint === q.mint && from.owner === q.hot ? from.amount : 0n;
  if (from?.state === FROZEN) return { kind: 'wait', reason: `The hot wallet's ${q.symbol} account is frozen by the token issuer; retrying.` };
  if (held < q.amount)
    return { kind: 'wait', reason: `Hot wallet holds ${units(held, q.decimals)} ${q.symbol}, needs ${units(q.amount, q.decimals)}; retrying.` };
  const rent = payee.create ? BigInt(await rpc.call('getMinimumBalanceForRentExemption', [TOKEN_ACCOUNT_SIZE])) : 0n;
  const needs = rent + WITHDRAWAL_SIGNATURES_LAMPORTS;
  if (BigInt(gas.value) < needs)
    return { kind: 'wait', reason: `Gas wallet holds ${units(BigInt(gas.value), 9)} SOL, the transfer needs ${units(needs, 9)}; retrying.` };
  const latest = await rpc.call('getLatestBlockhash', [{ commitment: 'confirmed' }]);
  return {
    kind: 'send',
    plan: {
      mint: q.mint,
      decimals: q.decimals,
      source,
      amount: q.amount,
      close: false,
      rentReturned: 0n,
      destination: payee.tokenAccount,
      destinationOwner: payee.owner,
      createDestination: payee.create,
      rentCharged: rent,
      feeLamports: WITHDRAWAL_SIGNATURES_LAMPORTS,
      lifetime: latest.value,
    },
  };
}

const units = (v: bigint, decimals: number) => {
  const s = v.toString().padStart(decimals + 1, '0');
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '');
};
