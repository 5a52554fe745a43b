import type { Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getTokenDecoder } from '@solana-program/token';
import { associatedTokenAccount } from './associated-token-account';
import type { SolanaRpc, SolanaRpcResult } from './rpc';

/** The base fee per signature (no priority fee is added): a sweep has two, the fee payer's and the deposit owner's. */
export const LAMPORTS_PER_SIGNATURE = 5000n;

/** What a sweep of one deposit token account will do, read from the node (planSolanaSweep). */
export interface SolanaSweepPlan {
  mint: Address;
  decimals: number;
  /** The deposit token account (the owner's ATA) and what it holds at `finalized`, in base units. */
  source: Address;
  amount: bigint;
  /** Close the deposit token account after the transfer: only when nothing more arrived at `confirmed`. */
  close: boolean;
  /** The rent the close returns to the fee payer (the account's lamports). */
  rentReturned: bigint;
  /** The destination owner's ATA, created in the same transaction when missing (its rent paid by the fee payer). */
  destination: Address;
  destinationOwner: Address;
  createDestination: boolean;
  rentCharged: bigint;
  /** The base fee: two signatures. */
  feeLamports: bigint;
  lifetime: { blockhash: string; lastValidBlockHeight: number };
}

export type SolanaSweepRefusal = {
  refused:
    | 'nothing_to_sweep'
    /** The account holds less at `finalized` than the amount asked for (a node behind, or the payment not final). */
    | 'less_than_planned'
    /** The account holds less at `confirmed` than at `finalized`: an earlier sweep is landing; judge it first. */
    | 'outflow_pending'
    | 'source_frozen'
    | 'destination_frozen'
    /** The destination ATA address holds something else, or a token account whose owner was reassigned. */
    | 'destination_not_token_account';
};

const TOKEN_ACCOUNT_SIZE = 165;

/** The SPL token account in a base64 getAccountInfo value; null when there is none (or it is something else). */
export function tokenAccount(value: SolanaRpcResult<'getAccountInfo'>['value']) {
  if (!value || value.owner !== TOKEN_PROGRAM_ADDRESS || !Array.isArray(value.data) || value.data[1] !== 'base64') return null;
  const bytes = Buffer.from(value.data[0], 'base64');
  return bytes.length === TOKEN_ACCOUNT_SIZE ? getTokenDecoder().decode(bytes) : null;
}

/**
 * Reads what a sweep of `owner`'s deposit token account of `mint` to `destinationOwner`'s ATA needs: the finalized
 * balance (what may be credited and moved), whether a newer payment is still arriving (then the account is not
 * closed, so that payment is not refused), the destination's existence, rent and a recent blockhash. Every read
 * failure throws. With `amount` exactly that much moves (a settlement's sum), and the account is closed only if it
 * holds nothing more at `confirmed`; without it, the whole finalized balance.
 */
export async function planSolanaSweep(
  rpc: SolanaRpc,
  q: { owner: Address; mint: Address; decimals: number; destinationOwner: Address; amount?: bigint },
): Promise<SolanaSweepPlan | SolanaSweepRefusal> {
  const source = await associatedTokenAccount(q.owner, q.mint);
  const destination = await associatedTokenAccount(q.destinationOwner, q.mint);
  const [final, confirmed, dest] = await Promise.all([
    rpc.call('getAccountInfo', [source, { encoding: 'base64', commitment: 'finalized' }]),
    rpc.call('getAccountInfo', [source, { encoding: 'base64', commitment: 'confirmed' }]),
    rpc.call('getAccountInfo', [destination, { encoding: 'base64', commitment: 'confirmed' }]),
  ]);
  const token = tokenAccount(final.value);
  if (!token || token.mint !== q.mint || token.owner !== q.owner) return { refused: 'nothing_to_sweep' };
  if (token.state === 2) return { refused: 'source_frozen' };
  const later = tokenAccount(confirmed.value);
  if (!later || later.amount < token.amount) return { refused: 'outflow_pending' };
  // Nothing final yet and a payment still arriving: wait for it rather than close under it.
  if (q.amount === undefined && token.amount === 0n && later.amount > 0n) return { refused: 'nothing_to_sweep' };
  const moved = q.amount ?? token.amount;
  if (moved > token.amount) return { refused: 'less_than_planned' };
  const destToken = tokenAccount(dest.value);
  if (dest.value && (!destToken || destToken.mint !== q.mint || destToken.owner !== q.destinationOwner))
    return { refused: 'destination_not_token_account' };
  if (destToken?.state === 2) return { refused: 'destination_frozen' };
  // An empty account is only closed (its rent recovered): no destination account is created for nothing.
  const createDestination = dest.value === null && moved > 0n;
  const [rent, latest] = await Promise.all([
    createDestination ? rpc.call('getMinimumBalanceForRentExemption', [165]) : Promise.resolve(0),
    rpc.call('getLatestBlockhash', [{ commitment: 'confirmed' }]),
  ]);
  const close = later.amount === moved;
  return {
    mint: q.mint,
    decimals: q.decimals,
    source,
    amount: moved,
    close,
    rentReturned: close ? BigInt(final.value!.lamports) : 0n,
    destination,
    destinationOwner: q.destinationOwner,
    createDestination,
    rentCharged: BigInt(rent),
    feeLamports: 2n * LAMPORTS_PER_SIGNATURE,
    lifetime: latest.value,
  };
}
