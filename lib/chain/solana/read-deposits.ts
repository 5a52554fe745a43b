import type { Address } from '@solana/kit';
import { associatedTokenAccount } from './associated-token-account';
import { SolanaRpcError, type SolanaRpc, type SolanaRpcResult } from './rpc';

/** One payment of a mint into a deposit owner's associated token account, as the node reports it. */
export interface SolanaDeposit {
  signature: string;
  slot: number;
  blockTime: number | null;
  /** Base units of the mint that the transaction added to the deposit token account. */
  amount: bigint;
  /** `detected`: seen at `confirmed` (shown to the payer, not credited); `finalized`: may be credited. */
  status: 'detected' | 'finalized';
  /** Owners whose token account of the mint lost tokens in the transaction: the payer's wallet (refunds, screening). */
  senders: string[];
}

const PAGE = 1000;
type Tx = NonNullable<SolanaRpcResult<'getTransaction'>>;
type TokenBalances = NonNullable<Tx['meta']>['preTokenBalances'];

/**
 * The payments of `mint` into the associated token account of `owner` (a per-invoice deposit key), newest first,
 * down to `until` (the newest signature already read at `finalized`, excluded). Read at `confirmed`: a payment
 * shows as detected there and as finalized once the node says so. Amounts come from the transaction's token
 * balances for that account and mint (post − pre), which also catch transfers made by programs through CPI and
 * transfers from any wallet or exchange. A failed transaction moved nothing and is skipped; one that took tokens out
 * (the sweep) is no payment. Every read that fails or answers something unexpected throws (SolanaRpcError): a
 * failed read is never "no payment".
 */
export async function readDeposits(
  rpc: SolanaRpc,
  q: { owner: Address; mint: Address; until?: string },
): Promise<{ tokenAccount: Address; deposits: SolanaDeposit[] }> {
  const tokenAccount = await associatedTokenAccount(q.owner, q.mint);
  const deposits: SolanaDeposit[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await rpc.call('getSignaturesForAddress', [
      tokenAccount,
      { commitment: 'confirmed', limit: PAGE, ...(before && { before }), ...(q.until && { until: q.until }) },
    ]);
    for (const entry of page) {
      if (entry.err !== null) continue;
      const tx = await rpc.call('getTransaction', [
        entry.signature,
        { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 },
      ]);
      // Listed at `confirmed` but not readable there: the node is inconsistent or behind; not "nothing paid".
      if (!tx?.meta) throw new SolanaRpcError('getTransaction', `${entry.signature} is listed for ${tokenAccount} but not readable`);
      if (tx.meta.err !== null) continue;
      const amount = balanceChange(tx, tokenAccount, q.mint, entry.signature);
      if (amount <= 0n) continue;
      deposits.push({
        signature: entry.signature,
        slot: entry.slot,
        blockTime: entry.blockTime,
        amount,
        status: entry.confirmationStatus === 'finalized' ? 'finalized' : 'detected',
        senders: sendersOf(tx, q.mint),
      });
    }
    if (page.length < PAGE) return { tokenAccount, deposits };
    before = page[page.length - 1]!.signature;
  }
}

/** Every account key in the order token balances index them: static keys, then lookup-table loads. */
const keysOf = (tx: Tx) => [
  ...tx.transaction.message.accountKeys,
  ...(tx.meta?.loadedAddresses?.writable ?? []),
  ...(tx.meta?.loadedAddresses?.readonly ?? []),
];

const amountAt = (balances: TokenBalances, index: number, mint: string) =>
  balances?.find((b) => b.accountIndex === index && b.mint === mint)?.uiTokenAmount.amount ?? 0n;

/** What the transaction added to (or took from) the token account for the mint, in base units. */
function balanceChange(tx: Tx, tokenAccount: string, mint: string, signature: string): bigint {
  const index = keysOf(tx).indexOf(tokenAccount);
  if (index < 0) throw new SolanaRpcError('getTransaction', `${signature} does not name ${tokenAccount}, which it was listed for`);
  if (!tx.meta!.preTokenBalances || !tx.meta!.postTokenBalances)
    throw new SolanaRpcError('getTransaction', `${signature} has no token balances (the node must report them)`);
  return amountAt(tx.meta!.postTokenBalances, index, mint) - amountAt(tx.meta!.preTokenBalances, index, mint);
}

/** Owners of token accounts of the mint whose balance fell in the transaction. */
function sendersOf(tx: Tx, mint: string): string[] {
  const out = new Set<string>();
  for (const pre of tx.meta!.preTokenBalances ?? []) {
    if (pre.mint !== mint || !pre.owner) continue;
    if (amountAt(tx.meta!.postTokenBalances, pre.accountIndex, mint) < pre.uiTokenAmount.amount) out.add(pre.owner);
  }
  return [...out];
}
