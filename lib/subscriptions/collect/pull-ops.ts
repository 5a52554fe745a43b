import type { Hex } from 'viem';
import type { CollectionPull } from '@/db/schema';
import type { ChainFamily } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import type { CollectionState } from '../read-collection-state';
import type { CollectorNetwork } from './collector-network';
import { EVM_PULL_OPS } from './evm-pull-ops';
import { TRON_PULL_OPS } from './tron-pull-ops';

/** A payer's permission as the collector holds it (`permissions(payer, id)`), the token in the family's wire form. */
export interface Permission {
  token: string;
  start: bigint;
  period: bigint;
  cap: bigint;
  /** Pulled in the permission's last pulled period (0: never pulled). */
  spent: bigint;
  revoked: boolean;
}

export interface PullRequest {
  subscriptionId: string;
  periodStart: Date;
  invoiceId: string;
  /** The invoice's amount in token units (decimal string). */
  amount: string;
  /** The invoice's deposit address as stored. */
  depositAddress: string;
  payer: string;
  permissionId: Hex;
  /** The deposit address is not allowed on the collector yet: the admin's setDepositAllowed goes first. */
  needsAllow: boolean;
}

/** Where a recorded pull stands after one step: final (succeeded, reverted) or still on its way (resumed by the next run). */
export type PullProgress = 'succeeded' | 'reverted' | 'in_flight';

/**
 * What a pull does differently per chain family (issue 48 §2): reading the collection state, signing and recording
 * the pull, sending it and judging its outcome. collect-period.ts is the same for every family and asks
 * `pullOpsOf(net)`; each family's implementation sits beside it (evm-pull-ops.ts, tron-pull-ops.ts).
 */
export interface PullOps {
  /** Decimals of the gas coin's unit gas_spend records the family's cost in (wei: 18; TRON's sun: 6). */
  costDecimals: number;
  /** An address (payer, deposit address) as stored; and as the API and the payer's wallet write it. */
  storedAddress(addr: string): string;
  wireAddress(stored: string): string;
  /** Why the payer's typed or pasted wallet is not one of this family's (null: it is): checksum, zero address. */
  payerProblem(input: string): string | null;
  /** An address (wire or stored form) as the collector's ABI takes it (its 20 account bytes, `0x…`): TRON's calldata is EVM's. */
  abiAddress(addr: string): `0x${string}`;
  /** A link most of the family's wallets open as the token's `approve` (EIP-681 on EVM); null where there is none (TRON). */
  approveLink(p: { token: string; chainId: number; spender: string; units: bigint }): string | null;
  /** Balance, allowance and what the permission allows now (one block where the family allows); a failed read throws. */
  readState(net: CollectorNetwork, p: { permissionId: Hex; payer: string; amount: bigint }): Promise<CollectionState>;
  readPermission(net: CollectorNetwork, payer: string, permissionId: Hex): Promise<Permission>;
  depositAllowed(net: CollectorNetwork, to: string): Promise<boolean>;
  /** Signs the pull (and the admin's allow) and records it before any broadcast; null when the period has an attempt already. */
  record(db: Db, net: CollectorNetwork, p: PullRequest): Promise<CollectionPull | null>;
  /** Sends (or sends again, the same bytes) a recorded pull and judges it; records what it cost in gas_spend. */
  advance(db: Db, net: CollectorNetwork, row: CollectionPull, afterBroadcast?: () => void | Promise<void>): Promise<PullProgress>;
}

const none = (): never => {
  throw new Error('this chain family has no subscription collector');
};

/** Solana has no collector (collectorNetworkOf answers null): nothing reaches it. */
const NO_PULLS: PullOps = {
  costDecimals: 9,
  storedAddress: (a) => a,
  wireAddress: (a) => a,
  payerProblem: () => 'has no automatic collection on this chain',
  abiAddress: none,
  approveLink: () => null,
  readState: none,
  readPermission: none,
  depositAllowed: none,
  record: none,
  advance: none,
};

export const PULL_OPS: Record<ChainFamily, PullOps> = { evm: EVM_PULL_OPS, tron: TRON_PULL_OPS, solana: NO_PULLS };

export const pullOpsOf = (net: Pick<CollectorNetwork, 'family'>): PullOps => PULL_OPS[net.family];
