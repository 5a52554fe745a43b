import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountRole,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  devnet,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { SOLANA_RPC_RESULTS } from '@/lib/chain/solana/rpc-schemas';
import { startSolanaNode, type SolanaNode } from './solana-node';

/**
 * Fidelity of the Solana stand-in, judged from outside our code: every transaction is built and signed by
 * @solana/kit with @solana-program/token and memo, as a payer's wallet would, sent over HTTP JSON-RPC through kit's
 * own client, and the answers parse with the schemas the gateway's adapter uses (lib/chain/solana/rpc-schemas.ts).
 */
const FINALIZED_DEPTH = 4;
let node: SolanaNode;
let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnet>>>;
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  // devnet(): the test-cluster API, which has requestAirdrop.
  rpc = createSolanaRpc(devnet(node.url));
});
afterAll(async () => {
  await node?.stop();
});

/** A raw JSON-RPC call, parsed by the adapter's schema for the method. */
async function call<M extends keyof typeof SOLANA_RPC_RESULTS>(method: M, params: unknown[]) {
  const res = await fetch(node.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  if (body.error) throw Object.assign(new Error(body.error.message), body.error);
  return SOLANA_RPC_RESULTS[method].parse(body.result) as ReturnType<(typeof SOLANA_RPC_RESULTS)[M]['parse']>;
}
// The Memo program wallets use (v3, MemoSq4…): @solana-program/memo 0.15 defaults to a newer address (Memo4c2p…).
const MEMO_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;
const memoIx = (memo: string) => getAddMemoInstruction({ memo }, { programAddress: MEMO_V3 });
const ata = async (owner: Address, mint: Address) => (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

/** Signs with kit (the first signer pays) against a blockhash from the node; returns the base64 wire transaction. */
async function build(signers: KeyPairSigner[], instructions: Instruction[], lifetime?: { blockhash: string; lastValidBlockHeight: bigint }) {
  const life = lifetime ?? (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signers[0]!, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(life as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0], m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return { wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) };
}

async function fundedPayer(usdc: bigint) {
  const payer = await generateKeyPairSigner();
  await rpc.requestAirdrop(payer.address, lamports(1_000_000_000n)).send();
  if (usdc > 0n) await node.mintTo('USDC', payer.address, usdc);
  return payer;
}

describe('USDC paid by @solana/kit over JSON-RPC', () => {
  it("runs the payer's flow (create the shop's ATA, transferChecked with a reference key, memo) and moves processed → confirmed → finalized", async () => {
    const payer = await fundedPayer(50_000_000n);
    const shop = (await generateKeyPairSigner()).address;
    const reference = (await generateKeyPairSigner()).address;
    const mint = node.mints.USDC;
    const [from, to] = [await ata(payer.address, mint), await ata(shop, mint)];
    const transfer = getTransferCheckedInstruction({ source: from, mint, destination: to, authority: payer, amount: 12_340_000n, decimals: 6 });
    // Solana Pay: the reference is an extra read-only account on the transfer, which the token program ignores.
    const withReference = { ...transfer, accounts: [...transfer.accounts, { address: reference, role: AccountRole.READONLY }] };
    const { wire, signature } = await build(
      [payer],
      [getCreateAssociatedTokenIdempotentInstruction({ payer, ata: to, owner: shop, mint }), withReference, memoIx('invoice 42')],
    );
    expect(await rpc.sendTransaction(wire, { encoding: 'base64' }).send()).toBe(signature);

    const statusOf = async () => (await call('getSignatureStatuses', [[signature]])).value[0];
    expect(await statusOf()).toMatchObject({ confirmationStatus: 'processed', err: null, confirmations: 0 });
    // Not yet visible where commitment is required: kit's default (finalized) and confirmed.
    expect(await call('getTransaction', [signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }])).toBeNull();
    const finalizedBalance = async () =>
      (await call('getTokenAccountsByOwner', [shop, { mint }, { encoding: 'jsonParsed', commitment: 'finalized' }])).value.map(
        (a) => a.account.data.parsed.info.tokenAmount.amount,
      );
    expect(await finalizedBalance()).toEqual([]);

    node.advance();
    expect(await statusOf()).toMatchObject({ confirmationStatus: 'confirmed', confirmations: 1 });
    node.advance(FINALIZED_DEPTH - 1);
    expect(await statusOf()).toMatchObject({ confirmationStatus: 'finalized', confirmations: null });
    expect(await finalizedBalance()).toEqual([12_340_000n]);

    const tx = (await call('getTransaction', [signature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }]))!;
    expect(tx.meta!.err).toBeNull();
    expect(tx.meta!.fee).toBe(5000);
    const toIndex = tx.transaction.message.accountKeys.indexOf(to);
    expect(tx.meta!.preTokenBalances!.find((b) => b.accountIndex === toIndex)).toBeUndefined();
    expect(tx.meta!.postTokenBalances!.find((b) => b.accountIndex === toIndex)).toMatchObject({
      mint,
      owner: shop,
      uiTokenAmount: { amount: 12_340_000n, decimals: 6 },
    });
    // The payer paid the new account's rent (~0.00204 SOL) and the fee.
    const payerIndex = tx.transaction.message.accountKeys.indexOf(payer.address);
    expect(tx.meta!.preBalances[payerIndex]! - tx.meta!.postBalances[payerIndex]!).toBe(2_039_280 + 5000);
    expect(await call('getMinimumBalanceForRentExemption', [165])).toBe(2_039_280);

    const found = await call('getSignaturesForAddress', [reference, { commitment: 'confirmed' }]);
    expect(found).toEqual([expect.objectContaining({ signature, err: null, memo: '[10] invoice 42', confirmationStatus: 'finalized' })]);
  });

  it('refuses a transaction whose blockhash expired (lastValidBlockHeight passed); without preflight it never lands', async () => {
    const payer = await fundedPayer(0n);
    const life = (await rpc.getLatestBlockhash({ commitment: 'processed' }).send()).value;
    const height = await call('getBlockHeight', [{ commitment: 'processed' }]);
    expect(Number(life.lastValidBlockHeight)).toBe(height + 150);
    const memo = (text: string) => build([payer], [memoIx(text)], life);

    node.advance(150);
    // Height = lastValidBlockHeight: still accepted.
    const last = await memo('last valid');
    await expect(call('sendTransaction', [last.wire, { encoding: 'base64' }])).resolves.toBe(last.signature);
    node.advance(1);
    const late = await memo('too late');
    await expect(call('sendTransaction', [late.wire, { encoding: 'base64' }])).rejects.toMatchObject({
      code: -32002,
      data: { err: 'BlockhashNotFound' },
    });
    const dropped = await memo('dropped');
    await expect(call('sendTransaction', [dropped.wire, { encoding: 'base64', skipPreflight: true }])).resolves.toBe(dropped.signature);
    node.advance(FINALIZED_DEPTH + 1);
    expect((await call('getSignatureStatuses', [[dropped.signature, late.signature, last.signature]])).value).toEqual([
      null,
      null,
      expect.objectContaining({ confirmationStatus: 'finalized' }),
    ]);
  });

  it('refuses a failing transfer at preflight and lands it failed (fee paid) without preflight', async () => {
    const payer = await fundedPayer(1_000_000n);
    const mint = node.mints.USDC;
    const shop = (await generateKeyPairSigner()).address;
    const [from, to] = [await ata(payer.address, mint), await ata(shop, mint)];
    const ixs = [
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: to, owner: shop, mint }),
      getTransferCheckedInstruction({ source: from, mint, destination: to, authority: payer, amount: 2_000_000n, decimals: 6 }),
    ];
    const a = await build([payer], ixs);
    // SPL Token's InsufficientFunds is custom error 1.
    await expect(call('sendTransaction', [a.wire, { encoding: 'base64' }])).rejects.toMatchObject({
      code: -32002,
      data: { err: { InstructionError: [1, { Custom: 1 }] } },
    });
    expect((await call('getSignatureStatuses', [[a.signature]])).value[0]).toBeNull();
    await call('sendTransaction', [a.wire, { encoding: 'base64', skipPreflight: true }]);
    expect((await call('getSignatureStatuses', [[a.signature]])).value[0]).toMatchObject({ err: { InstructionError: [1, { Custom: 1 }] } });
    // A second send of the same signed transaction is refused, not executed twice.
    await expect(call('sendTransaction', [a.wire, { encoding: 'base64', skipPreflight: true }])).rejects.toMatchObject({ code: -32002 });
  });

  it('answers reads through kit: slots, balances, account info at each commitment', async () => {
    const who = (await generateKeyPairSigner()).address;
    const processed = await rpc.getSlot({ commitment: 'processed' }).send();
    expect(await rpc.getSlot({ commitment: 'finalized' }).send()).toBe(processed - BigInt(FINALIZED_DEPTH));
    await rpc.requestAirdrop(who, lamports(5_000_000n)).send();
    expect((await rpc.getBalance(who, { commitment: 'processed' }).send()).value).toBe(5_000_000n);
    expect((await rpc.getBalance(who).send()).value).toBe(0n);
    expect((await rpc.getAccountInfo(who).send()).value).toBeNull();
    node.advance(FINALIZED_DEPTH);
    const info = (await rpc.getAccountInfo(who, { encoding: 'base64' }).send()).value!;
    expect(info.owner).toBe('11111111111111111111111111111111');
    expect(info.lamports).toBe(5_000_000n);
    const mint = await call('getAccountInfo', [node.mints.USDT, { encoding: 'jsonParsed' }]);
    expect(mint.value!.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: 6, freezeAuthority: node.keys.issuer.address } },
    });
  });
});
