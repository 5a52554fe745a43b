import { z } from 'zod';

/**
 * Solana JSON-RPC answers as the adapter reads them, checked against the examples of Solana's RPC documentation
 * (rpc-schemas.test.ts, fixtures/) and against the stand-in node (devtools/solana-node). A result without the
 * expected shape throws: a node that answers something else is a failed read, never a default.
 */
const base58 = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]+$/);
const pubkey = base58.min(32).max(44);
const signature = base58.min(64).max(88);
const u64 = z.number().int().nonnegative();
/** A token amount in base units: a decimal string, read as bigint (never a float). */
const units = z
  .string()
  .regex(/^\d+$/)
  .transform((s) => BigInt(s));
const commitment = z.enum(['processed', 'confirmed', 'finalized']);
/** TransactionError: "BlockhashNotFound" or {"InstructionError":[0,{"Custom":1}]}. */
const txError = z.union([z.string(), z.record(z.string(), z.unknown())]).nullable();
const context = z.object({ slot: u64, apiVersion: z.string().optional() });
const withContext = <T extends z.ZodType>(value: T) => z.object({ context, value });

const uiTokenAmount = z.object({ amount: units, decimals: z.number().int().min(0).max(255), uiAmountString: z.string() });
const tokenBalance = z.object({
  accountIndex: z.number().int().nonnegative(),
  mint: pubkey,
  owner: pubkey.optional(),
  programId: pubkey.optional(),
  uiTokenAmount,
});

const account = z.object({
  lamports: u64,
  owner: pubkey,
  executable: z.boolean(),
  // u64::MAX (18446744073709551615) for rent-exempt accounts: beyond a double's precision, and unused.
  rentEpoch: z.number().nonnegative(),
  space: u64.optional(),
  data: z.union([
    z.tuple([z.string(), z.enum(['base58', 'base64', 'base64+zstd'])]),
    z.object({ program: z.string(), parsed: z.unknown(), space: u64 }),
  ]),
});

const parsedTokenAccount = z.object({
  program: z.literal('spl-token'),
  parsed: z.object({
    type: z.literal('account'),
    info: z.object({ mint: pubkey, owner: pubkey, state: z.enum(['initialized', 'frozen', 'uninitialized']), tokenAmount: uiTokenAmount }),
  }),
  space: u64,
});

const instruction = z.object({
  programIdIndex: z.number().int().nonnegative(),
  accounts: z.array(z.number().int().nonnegative()),
  data: base58.or(z.literal('')),
});

/** Each method's `result`, by method name. */
export const SOLANA_RPC_RESULTS = {
  getSlot: u64,
  /** The hash of the chain's first block: which cluster the node serves (mainnet-beta, devnet, a stand-in). */
  getGenesisHash: pubkey,
  getBlockHeight: u64,
  getMinimumBalanceForRentExemption: u64,
  getBalance: withContext(u64),
  getLatestBlockhash: withContext(z.object({ blockhash: pubkey, lastValidBlockHeight: u64 })),
  getAccountInfo: withContext(account.nullable()),
  getTokenAccountsByOwner: withContext(z.array(z.object({ pubkey, account: account.extend({ data: parsedTokenAccount }) }))),
  getSignatureStatuses: withContext(
    z.array(z.object({ slot: u64, confirmations: u64.nullable(), err: txError, confirmationStatus: commitment.nullable() }).nullable()),
  ),
  getSignaturesForAddress: z.array(
    z.object({
      signature,
      slot: u64,
      err: txError,
      memo: z.string().nullable(),
      blockTime: z.number().int().nullable(),
      confirmationStatus: commitment.nullable(),
    }),
  ),
  getTransaction: z
    .object({
      slot: u64,
      blockTime: z.number().int().nullable(),
      meta: z
        .object({
          err: txError,
          fee: u64,
          preBalances: z.array(u64),
          postBalances: z.array(u64),
          preTokenBalances: z.array(tokenBalance).optional(),
          postTokenBalances: z.array(tokenBalance).optional(),
          logMessages: z.array(z.string()).nullish(),
          /**
           * v0 transactions: accounts loaded from lookup tables, after the static keys in the order token balances
           * index them (writable, then read-only). Absent on legacy transactions and from nodes that omit it.
           */
          loadedAddresses: z.object({ writable: z.array(pubkey), readonly: z.array(pubkey) }).optional(),
        })
        .nullable(),
      transaction: z.object({
        signatures: z.array(signature).optional(),
        message: z.object({ accountKeys: z.array(pubkey), instructions: z.array(instruction), recentBlockhash: pubkey.optional() }),
      }),
      version: z.union([z.literal('legacy'), z.number()]).optional(),
    })
    .nullable(),
  sendTransaction: signature,
  requestAirdrop: signature,
} as const;

export type SolanaRpcMethod = keyof typeof SOLANA_RPC_RESULTS;
