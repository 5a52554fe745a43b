/** What pendingReason says while a withdrawal waits for the owner (the sending lane skips it). */
export const AWAITING_APPROVAL = 'awaiting_approval';

/**
 * The `pendingReason` texts of a PROCESSING withdrawal that waits on the chain
 * (docs/withdrawals.md lists them). Each starts with a stable phrase a client
 * or a test can match; the rest says what is known.
 */
export const chainWaitReasons = {
  readFailed: (what: string) => `Chain state could not be read (${what.slice(0, 120)}); checking again, nothing is re-sent meanwhile.`,
  nodeBehind: (head: number, needed: number) =>
    `RPC node is behind (head ${head}, needs block ${needed}); waiting for a node that has it, nothing is re-sent meanwhile.`,
  nonceUsed: (nonce: number, atBlock: number, until: number) =>
    `Transaction not found although nonce ${nonce} is used (seen at block ${atBlock}); re-signed only if still not found at block ${until}.`,
  resent: (nonce: number, hashes: number, head: number) =>
    `Re-sending: nonce ${nonce} was taken by another transaction and none of this withdrawal's ${hashes} transaction(s) was mined by block ${head}.`,
};

/** The `pendingReason` texts of a TRON withdrawal (no nonces: a transaction lands or expires, docs/tron.md §5). */
export const tronWaitReasons = {
  mined: (txId: string, block: number) => `Transaction ${txId} is in block ${block}; waiting for it to be solidified.`,
  refused: (code: string, txId: string, expiration: number) =>
    `The node refused transaction ${txId} (${code}); re-signed only once the solidified chain is past its expiration (${new Date(expiration).toISOString()}) without it.`,
  resent: (txId: string, expiration: number) =>
    `Re-sending: transaction ${txId} expired unmined (the solidified chain passed ${new Date(expiration).toISOString()} without it).`,
};

/** The `pendingReason` texts of a Solana withdrawal (a recent blockhash, valid up to a block height: docs/solana.md §6.2). */
export const solanaWaitReasons = {
  landed: (signature: string, slot: number) => `Transaction ${signature} is in slot ${slot}; waiting for it to be finalized.`,
  refused: (code: string, signature: string, lastValid: number) =>
    `The node refused transaction ${signature} (${code}); re-signed only once the finalized block height is past ${lastValid} without it.`,
  resent: (signature: string, lastValid: number, finalized: number) =>
    `Re-sending: transaction ${signature} expired unlanded (finalized block height ${finalized} is past its last valid height ${lastValid}).`,
};
