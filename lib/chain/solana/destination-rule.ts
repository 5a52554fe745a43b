import { isOffCurveAddress, type Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getTokenDecoder } from '@solana-program/token';
import { SOLANA_SYSTEM_PROGRAM, SolanaAddressError, parseSolanaAddress } from './address';
import { associatedTokenAccount } from './associated-token-account';

const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EHPJGeVhV8sXqKg7sYBP';
const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;

/** The account at the address as the node reports it (getAccountInfo, data decoded from base64); null when none. */
export type SolanaAccountInfo = { owner: string; data: Uint8Array; executable: boolean } | null;

export type SolanaDestination =
  /** `tokenAccount` is where the tokens go: the owner's associated token account (created by the sender when missing). */
  { ok: true; owner: Address; tokenAccount: Address; tokenAccountGiven: boolean } | { ok: false; code: SolanaDestinationRefusal; reason: string };

export type SolanaDestinationRefusal =
  | 'invalid_address'
  | 'not_associated_token_account'
  | 'token_account_other_mint'
  | 'token_account_frozen'
  | 'mint_account'
  | 'token_2022_account'
  | 'program_account'
  | 'program_owned_account'
  | 'off_curve_unknown';

/**
 * Where a payout of `mint` to `raw` lands, or why it must not be sent. A wallet (owner) address is paid at its
 * associated token account; a token account is accepted only when it IS its owner's associated token account for
 * this mint, because tokens sent to any other token account are invisible to wallets that look up the ATA and
 * can be closed or re-owned by whoever controls it. Everything else a person might paste is refused with a reason.
 */
export async function judgeSolanaDestination(raw: string, mint: Address, account: SolanaAccountInfo): Promise<SolanaDestination> {
  let address: Address;
  try {
    address = parseSolanaAddress(raw);
  } catch (e) {
    return refuse('invalid_address', e instanceof SolanaAddressError ? e.message : String(e));
  }
  if (account?.executable)
    return refuse('program_account', 'this is a program, not a wallet: give the wallet address that should receive the tokens');
  if (!account || (account.owner === SOLANA_SYSTEM_PROGRAM && account.data.length === 0)) {
    // No account yet, or a plain SOL account: a wallet. A never-used off-curve address could be anything derived by
    // a program (or a not-yet-created token account), with no key to spend what lands there.
    if (!account && isOffCurveAddress(address))
      return refuse(
        'off_curve_unknown',
        'this address has no account and is not a wallet key (it is program-derived): give the wallet address instead',
      );
    return { ok: true, owner: address, tokenAccount: await associatedTokenAccount(address, mint), tokenAccountGiven: false };
  }
  if (account.owner === TOKEN_2022_PROGRAM)
    return refuse(
      'token_2022_account',
      'this is a Token-2022 account; this token uses the classic SPL Token program: give the wallet address instead',
    );
  if (account.owner !== TOKEN_PROGRAM_ADDRESS)
    return refuse('program_owned_account', `this account belongs to the program ${account.owner}, not to a wallet: give the wallet address instead`);
  if (account.data.length === MINT_SIZE) return refuse('mint_account', 'this is a token mint, not a wallet: give the wallet address instead');
  if (account.data.length !== TOKEN_ACCOUNT_SIZE)
    return refuse('program_owned_account', 'this SPL Token account is neither a token account nor a mint');
  const t = getTokenDecoder().decode(account.data);
  if (t.mint !== mint)
    return refuse('token_account_other_mint', `this is a token account for another token (mint ${t.mint}): give the wallet address instead`);
  const ata = await associatedTokenAccount(t.owner, mint);
  if (ata !== address)
    return refuse(
      'not_associated_token_account',
      `this is a token account but not its owner's associated token account; send to the owner's wallet address ${t.owner} instead`,
    );
  // state 2 = Frozen (the mint's freeze authority, e.g. Circle for USDC): a transfer in would fail on chain.
  if (t.state === 2) return refuse('token_account_frozen', 'this token account is frozen by the token issuer and cannot receive');
  return { ok: true, owner: t.owner, tokenAccount: address, tokenAccountGiven: true };
}

const refuse = (code: SolanaDestinationRefusal, reason: string): SolanaDestination => ({ ok: false, code, reason });
