/** What every chain family's watcher reports: shared by lib/chain and its family adapters (lib/chain/tron). */

/** keccak256("Transfer(address,address,uint256)"): ERC-20's and TRC-20's Transfer event. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface TokenTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  /** Seconds; absent when the node does not put timestamps on logs. */
  blockTimestamp?: number;
  /** Lower-case, in the family's identity form (`0x…` 20 bytes on EVM, `41…` on TRON): screening probes its list with it as is. */
  from: string;
  /** Lower-case, as deposit addresses are stored. */
  to: string;
  value: bigint;
}

/** A decoded Transfer with its token contract: lower-case, in the network's stored form (`0x…` on EVM, `41…` on TRON). */
export type ScannedTransfer = TokenTransfer & { token: string };
