import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getMintEncoder,
  getMintToCheckedInstruction,
} from '@solana-program/token';
import { SolanaChain } from './chain';
import { GENESIS_HASH, solanaRpcServer } from './json-rpc';

export interface SolanaNodeOptions {
  /** Produce a slot every this many ms (dev; mainnet's is ~400); default none: a slot per accepted transaction (tests). */
  slotTimeMs?: number;
  /** Slots behind the head that count as confirmed (default 1). */
  confirmedDepth?: number;
  /** Slots behind the head that count as finalized (default 32, mainnet's usual lag). */
  finalizedDepth?: number;
  port?: number;
}

export type SolanaNode = Awaited<ReturnType<typeof startSolanaNode>>;

export const TOKEN_DECIMALS = 6;
const LAMPORTS_PER_SOL = 1_000_000_000n;
/** What the faucet wallet holds of each mint at start: 1,000,000 tokens. */
const FAUCET_UNITS = 1_000_000_000_000n;

/** A signer from a fixed seed, so dev addresses are the same on every start (these keys guard nothing real). */
const devSigner = (name: string) => createKeyPairSignerFromPrivateKeyBytes(createHash('sha256').update(`solana-stand-in:${name}`).digest());

/**
 * Starts the Solana stand-in: JSON-RPC over LiteSVM (which runs the real SPL Token, Associated Token Account and
 * Memo programs) on a free 127.0.0.1 port, USDC and USDT test mints (6 decimals, a mint and a freeze authority)
 * and funded wallets (1,000 SOL each). What it models and what it does not: docs/solana.md.
 */
export async function startSolanaNode(opts: SolanaNodeOptions = {}) {
  const chain = new SolanaChain(opts.confirmedDepth ?? 1, opts.finalizedDepth ?? 32);
  const keys = {
    issuer: await devSigner('issuer'),
    gas: await devSigner('gas'),
    hot: await devSigner('hot'),
    other: await devSigner('other'),
    // Where development's fees go (an address only: SOLANA_DEV.feeWallet); funded like the others, it holds nothing special.
    fee: await devSigner('fee'),
    // The test-mode faucet: holds FAUCET_UNITS of each mint from the start (the gateway's test payments come from it).
    faucet: await devSigner('faucet'),
  };
  for (const k of Object.values(keys)) chain.airdrop(k.address, 1000n * LAMPORTS_PER_SOL);
  const mints = { USDC: (await devSigner('mint:USDC')).address, USDT: (await devSigner('mint:USDT')).address };
  for (const mint of Object.values(mints)) {
    const data = getMintEncoder().encode({
      mintAuthority: keys.issuer.address,
      supply: 0n,
      decimals: TOKEN_DECIMALS,
      isInitialized: true,
      freezeAuthority: keys.issuer.address,
    });
    chain.svm.setAccount({
      address: mint,
      data: new Uint8Array(data),
      executable: false,
      lamports: chain.svm.minimumBalanceForRentExemption(BigInt(data.length)) as never,
      programAddress: TOKEN_PROGRAM_ADDRESS,
      space: BigInt(data.length),
    });
  }
  chain.advance();

  const autoSlot = !opts.slotTimeMs;
  const server = solanaRpcServer(chain, { onSend: () => autoSlot && chain.advance() });
  // Longer than a client's idle keep-alive (Node's agent: 5 s), so the client, not the server, closes an idle socket:
  // a server closing it as the client reuses it is an ECONNRESET (seen after event-loop stalls in npm run dev).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timer = opts.slotTimeMs ? setInterval(() => chain.advance(), opts.slotTimeMs) : undefined;

  /** Signs with `signers` (the first pays) and lands the transaction; throws when it is refused. */
  const submit = async (signers: KeyPairSigner[], instructions: Instruction[]) => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(signers[0]!, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: chain.head.blockhash, lastValidBlockHeight: BigInt(chain.head.blockHeight + 150) },
          m,
        ),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    const sig = chain.send(new Uint8Array(Buffer.from(getBase64EncodedWireTransaction(signed), 'base64')));
    if (autoSlot) chain.advance();
    return sig;
  };
  const ata = async (owner: Address, mint: Address) => (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const mintTo = async (token: keyof typeof mints, owner: Address, units: bigint) => {
    const mint = mints[token];
    const token_ = await ata(owner, mint);
    return submit(
      [keys.issuer],
      [
        getCreateAssociatedTokenIdempotentInstruction({ payer: keys.issuer, ata: token_, owner, mint }),
        getMintToCheckedInstruction({ mint, token: token_, mintAuthority: keys.issuer, amount: units, decimals: TOKEN_DECIMALS }),
      ],
    );
  };
  for (const token of ['USDC', 'USDT'] as const) await mintTo(token, keys.faucet.address, FAUCET_UNITS);

  return {
    url,
    chain,
    /** What `getGenesisHash` answers: fixed, like the keys and mints. */
    genesisHash: GENESIS_HASH,
    keys,
    /** The test mints: USDC and USDT, 6 decimals, mint and freeze authority `keys.issuer`. */
    mints,
    /** Produces `n` slots (tests: statuses move processed → confirmed → finalized). */
    advance(n = 1) {
      for (let i = 0; i < n; i++) chain.advance();
      return chain.head.slot;
    },
    /** Mints base units of `token` to the owner's associated token account, creating it (a real transaction from the issuer). */
    mintTo,
    /** Freezes a token account with the mint's freeze authority (USDC's and USDT's issuers can). */
    freeze: (token: keyof typeof mints, account: Address) =>
      submit([keys.issuer], [getFreezeAccountInstruction({ account, mint: mints[token], owner: keys.issuer })]),
    /** Credits SOL to `to` without a sender (the dev faucet). */
    airdrop(to: Address, lamports: bigint) {
      const sig = chain.airdrop(to, lamports);
      if (autoSlot) chain.advance();
      return sig;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
    },
  };
}
