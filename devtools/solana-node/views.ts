import { getBase58Decoder, type Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getMintDecoder, getTokenDecoder } from '@solana-program/token';
import type { AccountState, LandedTx, SolanaChain } from './chain';

/** u64::MAX: the rentEpoch of every rent-exempt account since rent collection ended. */
export const RENT_EPOCH_EXEMPT = 18_446_744_073_709_551_615n;
const b58 = getBase58Decoder();
const TOKEN_ACCOUNT_SIZE = 165;

/** An account as getAccountInfo's `value` (base64 or, for SPL Token accounts and mints, jsonParsed). */
export function accountView(chain: SolanaChain, a: AccountState, encoding: string, slot: number) {
  if (!a) return null;
  const base = { lamports: Number(a.lamports), owner: a.owner, executable: a.executable, rentEpoch: RENT_EPOCH_EXEMPT, space: a.data.length };
  if (encoding === 'jsonParsed' && a.owner === TOKEN_PROGRAM_ADDRESS) {
    const parsed = parseToken(chain, a, slot);
    if (parsed) return { ...base, data: { program: 'spl-token', parsed, space: a.data.length } };
  }
  if (encoding === 'base58') return { ...base, data: [b58.decode(a.data), 'base58'] };
  return { ...base, data: [Buffer.from(a.data).toString('base64'), 'base64'] };
}

function parseToken(chain: SolanaChain, a: NonNullable<AccountState>, slot: number) {
  if (a.data.length === TOKEN_ACCOUNT_SIZE) {
    const t = getTokenDecoder().decode(a.data);
    const decimals = mintDecimals(chain, t.mint, slot);
    return {
      type: 'account',
      info: {
        isNative: t.isNative.__option === 'Some',
        mint: t.mint,
        owner: t.owner,
        state: ['uninitialized', 'initialized', 'frozen'][t.state],
        tokenAmount: uiAmount(t.amount, decimals),
      },
    };
  }
  if (a.data.length === 82) {
    const m = getMintDecoder().decode(a.data);
    const opt = (o: { __option: string; value?: Address }) => (o.__option === 'Some' ? o.value : null);
    return {
      type: 'mint',
      info: {
        decimals: m.decimals,
        freezeAuthority: opt(m.freezeAuthority),
        isInitialized: m.isInitialized,
        mintAuthority: opt(m.mintAuthority),
        supply: m.supply.toString(),
      },
    };
  }
  return null;
}

function mintDecimals(chain: SolanaChain, mint: string, slot: number): number {
  const m = chain.accountAt(mint, slot);
  return m && m.data.length === 82 ? getMintDecoder().decode(m.data).decimals : 0;
}

function uiAmount(amount: bigint, decimals: number) {
  const s = amount.toString().padStart(decimals + 1, '0');
  const uiAmountString = decimals ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '') : s;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

function tokenBalances(chain: SolanaChain, tx: LandedTx, states: Map<string, AccountState>) {
  const out: unknown[] = [];
  tx.message.staticAccounts.forEach((key, accountIndex) => {
    const a = states.get(key);
    if (!a || a.owner !== TOKEN_PROGRAM_ADDRESS || a.data.length !== TOKEN_ACCOUNT_SIZE) return;
    const t = getTokenDecoder().decode(a.data);
    const uiTokenAmount = uiAmount(t.amount, mintDecimals(chain, t.mint, Number.MAX_SAFE_INTEGER));
    out.push({ accountIndex, mint: t.mint, owner: t.owner, programId: TOKEN_PROGRAM_ADDRESS, uiTokenAmount });
  });
  return out;
}

/** getTransaction's answer in `json` (or `base64`) encoding, legacy and v0 messages without lookup tables. */
export function transactionView(chain: SolanaChain, tx: LandedTx, encoding: string) {
  const m = tx.message;
  const slot = chain.slotRecord(tx.slot)!;
  const keys = m.staticAccounts as string[];
  const lamports = (states: Map<string, AccountState>) => keys.map((k) => Number(states.get(k)?.lamports ?? 0n));
  const meta = {
    err: tx.err,
    status: tx.err === null ? { Ok: null } : { Err: tx.err },
    fee: Number(tx.fee),
    preBalances: lamports(tx.pre),
    postBalances: lamports(tx.post),
    innerInstructions: [],
    logMessages: tx.logs,
    preTokenBalances: tokenBalances(chain, tx, tx.pre),
    postTokenBalances: tokenBalances(chain, tx, tx.post),
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: Number(tx.computeUnits),
  };
  const version = m.version === 'legacy' ? 'legacy' : 0;
  const transaction =
    encoding === 'base64'
      ? [Buffer.from(tx.wire).toString('base64'), 'base64']
      : {
          signatures: tx.signatures,
          message: {
            accountKeys: keys,
            header: {
              numRequiredSignatures: m.header.numSignerAccounts,
              numReadonlySignedAccounts: m.header.numReadonlySignerAccounts,
              numReadonlyUnsignedAccounts: m.header.numReadonlyNonSignerAccounts,
            },
            instructions: m.instructions.map((ix) => ({
              programIdIndex: ix.programAddressIndex,
              accounts: ix.accountIndices ?? [],
              data: b58.decode(ix.data ?? new Uint8Array()),
              stackHeight: null,
            })),
            recentBlockhash: m.lifetimeToken,
            ...(version === 0 ? { addressTableLookups: [] } : {}),
          },
        };
  return { slot: tx.slot, blockTime: slot.blockTime, meta, transaction, version };
}
