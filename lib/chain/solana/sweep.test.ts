import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { faultySolanaNode, solanaPayer } from '@/lib/testing/solana-payer';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { solanaDepositOwner } from './deposit-owner-key';
import { readDeposits } from './read-deposits';
import { SolanaRpcError, solanaRpc, type SolanaRpc } from './rpc';
import { broadcastSolanaTransaction } from './broadcast-transaction';
import { buildSolanaSweep } from './build-sweep';
import { judgeSentTransaction } from './judge-sent-transaction';
import { planSolanaSweep, type SolanaSweepPlan } from './plan-sweep';

/**
 * Issue 49: sweeping a per-invoice deposit token account. The deposit owner signs, the gas wallet pays the fee and
 * any new account's rent, the emptied account is closed with its rent returned to the gas wallet, and a stored
 * transaction is replaced only once its blockhash is safely expired. Payments are made by @solana/kit as a wallet
 * would (lib/testing/solana-payer.ts); every effect is read back over JSON-RPC from the stand-in node.
 */
const FINALIZED_DEPTH = 4;
const RENT = 2_039_280;
let node: SolanaNode;
let payer: ReturnType<typeof solanaPayer>;
let rpc: SolanaRpc;
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  payer = solanaPayer(node);
  rpc = solanaRpc(node.url);
});
afterAll(async () => {
  await node?.stop();
});

const lamportsOf = async (a: Address) => (await rpc.call('getBalance', [a, { commitment: 'confirmed' }])).value;
const accountOf = async (a: Address) => (await rpc.call('getAccountInfo', [a, { encoding: 'base64', commitment: 'confirmed' }])).value;
const tokenBalance = async (owner: Address) => {
  const { value } = await rpc.call('getTokenAccountsByOwner', [
    owner,
    { mint: node.mints.USDC },
    { encoding: 'jsonParsed', commitment: 'confirmed' },
  ]);
  return value.map((a) => a.account.data.parsed.info.tokenAmount.amount);
};

let invoiceIndex = 0;
/** A per-invoice deposit owner (derived from the dev mnemonic; no SOL, ever) paid `amount` USDC by a wallet, finalized. */
async function paidDeposit(amount: bigint): Promise<KeyPairSigner> {
  const owner = await solanaDepositOwner(DEV_MNEMONIC, invoiceIndex++);
  await payer.pay(await payer.funded('USDC', amount), owner.address, 'USDC', amount);
  node.advance(FINALIZED_DEPTH);
  return owner;
}

async function plan(owner: Address, destinationOwner: Address): Promise<SolanaSweepPlan> {
  const p = await planSolanaSweep(rpc, { owner, mint: node.mints.USDC, decimals: 6, destinationOwner });
  if ('refused' in p) throw new Error(`sweep refused: ${p.refused}`);
  return p;
}

/** Broadcasts, lands and finalizes a signed sweep; returns its transaction as the node reports it. */
async function land(tx: { signature: string; wire: string }) {
  await broadcastSolanaTransaction(rpc, tx);
  node.advance(FINALIZED_DEPTH);
  const got = await rpc.call('getTransaction', [tx.signature, { commitment: 'finalized', maxSupportedTransactionVersion: 0 }]);
  expect(got?.meta?.err).toBeNull();
  return got!;
}

describe('sweeping a deposit token account', () => {
  it('moves the finalized amount with the gas wallet as fee payer, creates the missing destination ATA and closes the deposit account', async () => {
    const owner = await paidDeposit(12_340_000n);
    const hot = (await generateKeyPairSigner()).address;
    const gas = node.keys.gas;
    const p = await plan(owner.address, hot);
    expect(p).toMatchObject({ amount: 12_340_000n, close: true, createDestination: true, rentCharged: BigInt(RENT), rentReturned: BigInt(RENT) });
    expect(p.feeLamports).toBe(10_000n);

    expect(await lamportsOf(owner.address)).toBe(0);
    const gasBefore = await lamportsOf(gas.address);
    const tx = await land(await buildSolanaSweep(p, { owner, feePayer: gas }));

    // Two signatures (gas wallet, deposit owner), 5,000 lamports each; the owner never held or needed SOL.
    expect(tx.meta!.fee).toBe(10_000);
    expect(tx.transaction.message.accountKeys[0]).toBe(gas.address);
    expect(await lamportsOf(owner.address)).toBe(0);
    // The deposit token account is gone, the hot wallet's ATA holds the amount.
    expect(await accountOf(p.source)).toBeNull();
    expect(await tokenBalance(hot)).toEqual([12_340_000n]);
    // The gas wallet paid the fee and the new ATA's rent, and got the closed account's rent back: net, the fee.
    expect((await lamportsOf(gas.address)) - gasBefore).toBe(-10_000 - RENT + RENT);
    // What the node recorded for the deposit token account's lamports: rent returned in full.
    const sourceIndex = tx.transaction.message.accountKeys.indexOf(p.source);
    expect(tx.meta!.preBalances[sourceIndex]! - tx.meta!.postBalances[sourceIndex]!).toBe(RENT);
    // The sweep reads as an outflow, not a payment: the deposit's payments are unchanged.
    expect((await readDeposits(rpc, { owner: owner.address, mint: node.mints.USDC })).deposits).toHaveLength(1);
  });

  it('to an existing destination: the gas wallet gains the payer-funded rent less the fee', async () => {
    const hot = (await generateKeyPairSigner()).address;
    await node.mintTo('USDC', hot, 1n);
    const owner = await paidDeposit(7_000_000n);
    const p = await plan(owner.address, hot);
    expect(p).toMatchObject({ createDestination: false, rentCharged: 0n, close: true });
    const before = await lamportsOf(node.keys.gas.address);
    await land(await buildSolanaSweep(p, { owner, feePayer: node.keys.gas }));
    expect((await lamportsOf(node.keys.gas.address)) - before).toBe(RENT - 10_000);
    expect(await tokenBalance(hot)).toEqual([7_000_001n]);
  });

  it('does not close an account a newer payment is still arriving at (confirmed, not finalized), and sweeps only the finalized amount', async () => {
    const owner = await paidDeposit(4_000_000n);
    await payer.pay(await payer.funded('USDC', 1_000_000n), owner.address, 'USDC', 1_000_000n);
    node.advance(1);
    const hot = (await generateKeyPairSigner()).address;
    const p = await plan(owner.address, hot);
    expect(p).toMatchObject({ amount: 4_000_000n, close: false, rentReturned: 0n });
    await land(await buildSolanaSweep(p, { owner, feePayer: node.keys.gas }));
    expect(await tokenBalance(owner.address)).toEqual([1_000_000n]);
    // The next sweep takes the rest and closes.
    const rest = await plan(owner.address, hot);
    expect(rest).toMatchObject({ amount: 1_000_000n, close: true, createDestination: false });
    await land(await buildSolanaSweep(rest, { owner, feePayer: node.keys.gas }));
    expect(await accountOf(rest.source)).toBeNull();
    expect(await tokenBalance(hot)).toEqual([5_000_000n]);
  });

  it('a payment landing between the plan and the broadcast makes the close fail, so nothing moves (all or nothing)', async () => {
    const owner = await paidDeposit(6_000_000n);
    const hot = (await generateKeyPairSigner()).address;
    const p = await plan(owner.address, hot);
    expect(p.close).toBe(true);
    const stored = await buildSolanaSweep(p, { owner, feePayer: node.keys.gas });
    await payer.pay(await payer.funded('USDC', 500_000n), owner.address, 'USDC', 500_000n);
    // SPL Token's NonNativeHasBalance (custom error 11) on CloseAccount, the third instruction.
    await expect(broadcastSolanaTransaction(rpc, stored)).rejects.toMatchObject({ data: { err: { InstructionError: [2, { Custom: 11 }] } } });
    node.advance(FINALIZED_DEPTH);
    expect(await tokenBalance(owner.address)).toEqual([6_500_000n]);
    expect(await tokenBalance(hot)).toEqual([]);
    // Refused, so never landed: still pending until its blockhash is safely expired, like any stored transaction.
    expect(await judgeSentTransaction(rpc, stored)).toMatchObject({ state: 'pending' });
  });

  it('refuses a fee payer that is the deposit owner, an account with nothing to sweep, and a second sweep while the first is landing', async () => {
    const owner = await paidDeposit(1_000_000n);
    const hot = (await generateKeyPairSigner()).address;
    const p = await plan(owner.address, hot);
    await expect(buildSolanaSweep(p, { owner, feePayer: owner })).rejects.toThrow(/fee payer must not be the deposit owner/);
    const empty = (await generateKeyPairSigner()).address;
    const refusal = (o: Address) => planSolanaSweep(rpc, { owner: o, mint: node.mints.USDC, decimals: 6, destinationOwner: hot });
    expect(await refusal(empty)).toEqual({ refused: 'nothing_to_sweep' });
    // The first sweep is confirmed, not finalized: the finalized balance is still there, but it is leaving.
    await broadcastSolanaTransaction(rpc, await buildSolanaSweep(p, { owner, feePayer: node.keys.gas }));
    node.advance(1);
    expect(await refusal(owner.address)).toEqual({ refused: 'outflow_pending' });
  });

  it('with an amount: moves exactly that, closes only when nothing more is there, refuses more than the finalized balance', async () => {
    const owner = await paidDeposit(9_000_000n);
    const hot = (await generateKeyPairSigner()).address;
    const ask = (amount: bigint) => planSolanaSweep(rpc, { owner: owner.address, mint: node.mints.USDC, decimals: 6, destinationOwner: hot, amount });
    expect(await ask(9_000_001n)).toEqual({ refused: 'less_than_planned' });
    expect(await ask(9_000_000n)).toMatchObject({ amount: 9_000_000n, close: true });
    const part = await ask(4_000_000n);
    expect(part).toMatchObject({ amount: 4_000_000n, close: false, rentReturned: 0n });
    await land(await buildSolanaSweep(part as SolanaSweepPlan, { owner, feePayer: node.keys.gas }));
    expect(await tokenBalance(owner.address)).toEqual([5_000_000n]);
    expect(await tokenBalance(hot)).toEqual([4_000_000n]);
  });

  it('closes an empty deposit account alone (a zero payment created it): its rent comes back, no destination account is made', async () => {
    const owner = await paidDeposit(0n);
    const hot = (await generateKeyPairSigner()).address;
    const p = await plan(owner.address, hot);
    expect(p).toMatchObject({ amount: 0n, close: true, createDestination: false, rentReturned: BigInt(RENT) });
    const before = await lamportsOf(node.keys.gas.address);
    await land(await buildSolanaSweep(p, { owner, feePayer: node.keys.gas }));
    expect(await accountOf(p.source)).toBeNull();
    expect(await accountOf(p.destination)).toBeNull();
    expect((await lamportsOf(node.keys.gas.address)) - before).toBe(RENT - 10_000);
  });
});

describe('a stored sweep transaction: re-sent as it is until it lands or is safely expired', () => {
  /** Finalized block height, as the node reports it. */
  const finalizedHeight = () => rpc.call('getBlockHeight', [{ commitment: 'finalized' }]);

  it('never broadcast (a crash between store and broadcast): pending while its blockhash may land, then safely expired, and only then replaced', async () => {
    const owner = await paidDeposit(2_000_000n);
    const hot = (await generateKeyPairSigner()).address;
    const stored = await buildSolanaSweep(await plan(owner.address, hot), { owner, feePayer: node.keys.gas });
    expect(await judgeSentTransaction(rpc, stored)).toMatchObject({ state: 'pending' });

    // Up to lastValidBlockHeight at the head, and until the finalized height passes it, it could still land.
    while ((await rpc.call('getBlockHeight', [{ commitment: 'processed' }])) <= stored.lastValidBlockHeight) node.advance(10);
    expect(await finalizedHeight()).toBeLessThanOrEqual(stored.lastValidBlockHeight);
    expect(await judgeSentTransaction(rpc, stored)).toMatchObject({ state: 'pending' });
    while ((await finalizedHeight()) <= stored.lastValidBlockHeight) node.advance(1);
    expect(await judgeSentTransaction(rpc, stored)).toEqual({ state: 'safely_expired', finalizedBlockHeight: stored.lastValidBlockHeight + 1 });

    // The stored bytes can no longer land; a new sweep (new blockhash, new signature) may now be sent, and lands.
    await expect(broadcastSolanaTransaction(rpc, stored)).rejects.toMatchObject({ data: { err: 'BlockhashNotFound' } });
    const replacement = await buildSolanaSweep(await plan(owner.address, hot), { owner, feePayer: node.keys.gas });
    expect(replacement.signature).not.toBe(stored.signature);
    await land(replacement);
    expect(await judgeSentTransaction(rpc, replacement)).toMatchObject({ state: 'landed', err: null, confirmationStatus: 'finalized' });
    expect(await judgeSentTransaction(rpc, stored)).toMatchObject({ state: 'safely_expired' });
    expect(await tokenBalance(hot)).toEqual([2_000_000n]);
  });

  it('re-sending the stored bytes while pending lands it once (same signature)', async () => {
    const owner = await paidDeposit(3_000_000n);
    const hot = (await generateKeyPairSigner()).address;
    const stored = await buildSolanaSweep(await plan(owner.address, hot), { owner, feePayer: node.keys.gas });
    await broadcastSolanaTransaction(rpc, stored);
    expect(await judgeSentTransaction(rpc, stored)).toMatchObject({ state: 'landed', confirmationStatus: 'processed' });
    // A second broadcast (the node said nothing, the caller retries) is "already processed": success, not a second sweep.
    await expect(broadcastSolanaTransaction(rpc, stored)).resolves.toBe(stored.signature);
    node.advance(FINALIZED_DEPTH);
    expect(await judgeSentTransaction(rpc, stored)).toMatchObject({ state: 'landed', confirmationStatus: 'finalized', err: null });
    expect(await tokenBalance(hot)).toEqual([3_000_000n]);
  });

  it('a failed read is an error, never "expired"', async () => {
    const owner = await paidDeposit(1_000_000n);
    const stored = await buildSolanaSweep(await plan(owner.address, (await generateKeyPairSigner()).address), { owner, feePayer: node.keys.gas });
    const faults: Record<string, object>[] = [
      { getBlockHeight: { error: { code: -32005, message: 'Node is behind' } } },
      { getSignatureStatuses: { error: { code: -32603, message: 'Internal error' } } },
      { getSignatureStatuses: { result: { context: { slot: 1 }, value: [] } } },
    ];
    for (const answers of faults) {
      const f = await faultySolanaNode(node.url, answers);
      await expect(judgeSentTransaction(solanaRpc(f.url), { ...stored, lastValidBlockHeight: 0 })).rejects.toThrow(SolanaRpcError);
      await f.stop();
    }
  });
});
