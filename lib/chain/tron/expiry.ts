import { TronNodeError, type TronNodeClient } from './node-client';
import { isEmptyAnswer, parseWalletBlock, type TronBlockRef } from './parse';

/** Blocks we are willing to read to prove a transaction unmined (a 1 h lifetime is 1,200 blocks). */
const MAX_BLOCKS = 1_500;

/**
 * The transaction's reference block was replaced (a reorg) and the block now at its height is solidified: every
 * block that could hold the transaction fails its TaPoS check (java-tron compares the reference block's id bytes
 * 8–16), and no canonical block held it before, since a block holding it would have needed that reference.
 */
async function replacedReference(client: TronNodeClient, n: number, refBlockHash: string): Promise<boolean> {
  const raw = await client.solidity('getblock', { id_or_num: String(n), detail: false });
  if (isEmptyAnswer(raw)) throw new TronNodeError('/walletsolidity/getblock', `solidified block ${n} missing`);
  const block = parseWalletBlock(raw);
  if (block.number !== n) throw new TronNodeError('/walletsolidity/getblock', `asked for block ${n}, got ${block.number}`);
  return block.id.slice(16, 32).toLowerCase() !== refBlockHash.toLowerCase();
}

/**
 * True only when the transaction can never be mined, so re-signing it cannot pay twice: its reference block was
 * replaced by a solidified one (a reorg, replacedReference), or the node's
 * solidified block is at or past the expiration (every later block is later than it, and java-tron
 * packs a transaction only while `expiration >= block time`), and none of the solidified blocks
 * that could hold it (after its reference block, up to the last one not later than the expiration)
 * contains it. Each of those blocks is read from `/walletsolidity` and must carry its own number,
 * so a node that lags or answers for another chain throws instead of proving anything.
 */
export async function isSafelyExpired(
  tx: { txId: string; expiration: number; refBlockNumber: number; refBlockHash?: string },
  client: TronNodeClient,
  /** The solidified block if already read (a shared read, readSolidifiedBlock); an older one only proves less. */
  known?: TronBlockRef,
): Promise<boolean> {
  const solid = known ?? parseWalletBlock(await client.solidity('getblock', { detail: false }));
  if (tx.refBlockHash && tx.refBlockNumber <= solid.number && (await replacedReference(client, tx.refBlockNumber, tx.refBlockHash))) return true;
  if (solid.timestamp < tx.expiration) return false;
  const txId = tx.txId.toLowerCase();
  for (let n = tx.refBlockNumber + 1; n <= solid.number; n++) {
    if (n - tx.refBlockNumber > MAX_BLOCKS) throw new Error(`expiration too far after the reference block to prove ${txId} unmined`);
    const raw = await client.solidity('getblock', { id_or_num: String(n), detail: true });
    if (isEmptyAnswer(raw)) throw new TronNodeError('/walletsolidity/getblock', `solidified block ${n} missing`);
    const block = parseWalletBlock(raw);
    if (block.number !== n) throw new TronNodeError('/walletsolidity/getblock', `asked for block ${n}, got ${block.number}`);
    if (block.txIds.includes(txId)) return false;
    if (block.timestamp > tx.expiration) return true;
  }
  // The solidified head itself is at the expiration and did not hold it; every later block is later.
  return true;
}
