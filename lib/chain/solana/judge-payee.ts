import type { Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getTokenDecoder } from '@solana-program/token';
import { judgeSolanaDestination, type SolanaAccountInfo, type SolanaDestinationRefusal } from './destination-rule';
import { readSolanaAccount } from './read-account';
import type { SolanaRpc } from './rpc';

const TOKEN_ACCOUNT_SIZE = 165;
const FROZEN = 2;

export type SolanaPayee =
  /** Where the tokens go (the owner's ATA), and whether the transfer must create it (its rent then paid by the fee payer). */
  { ok: true; owner: Address; tokenAccount: Address; create: boolean } | { ok: false; code: SolanaDestinationRefusal; reason: string };

const tokenOf = (a: SolanaAccountInfo) =>
  a && a.owner === TOKEN_PROGRAM_ADDRESS && a.data.length === TOKEN_ACCOUNT_SIZE ? getTokenDecoder().decode(a.data) : null;

/**
 * A payout destination as the node has it at `confirmed`: the destination rule on the address's account
 * (judgeSolanaDestination), then, for a wallet, its associated token account: missing (the transfer creates it),
 * the owner's account of this mint, or refused when frozen by the issuer or when the address holds anything else.
 * Used when a payout is accepted and again right before it is signed. A failed read throws.
 */
export async function judgeSolanaPayee(rpc: SolanaRpc, destination: string, mint: Address): Promise<SolanaPayee> {
  const judged = await judgeSolanaDestination(destination, mint, await readSolanaAccount(rpc, destination));
  if (!judged.ok) return judged;
  if (judged.tokenAccountGiven) return { ok: true, owner: judged.owner, tokenAccount: judged.tokenAccount, create: false };
  const account = await readSolanaAccount(rpc, judged.tokenAccount);
  if (!account) return { ok: true, owner: judged.owner, tokenAccount: judged.tokenAccount, create: true };
  const t = tokenOf(account);
  if (!t || t.mint !== mint || t.owner !== judged.owner)
    return { ok: false, code: 'program_owned_account', reason: "this wallet's token account address holds something else: it cannot receive" };
  if (t.state === FROZEN)
    return { ok: false, code: 'token_account_frozen', reason: "this wallet's token account is frozen by the token issuer and cannot receive" };
  return { ok: true, owner: judged.owner, tokenAccount: judged.tokenAccount, create: false };
}
