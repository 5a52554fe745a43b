import type { ChainFamily, FreezeListFunction } from '@/lib/config/rails';
import type { StoredAddress, WireAddress } from './common/address-brand';
import type { NetworkOf, ReadyNetwork } from './network';
import type { RailProblem } from './rail-stops';

/**
 * What the chain adapter does differently per chain family (issue 43 §2): lib asks `familyOps(chain)`
 * (lib/chain/families.ts) and never branches on the family. Server only; what a browser needs of a family, its
 * address rule, is apart in lib/chain/address-rules.ts so client components import no chain library. The
 * family's domain parts (its watcher, sweep, withdrawal lane, solvency and console reads) sit in their domain
 * behind a `Record<ChainFamily, …>` of that domain, since lib/chain imports no domain (docs/architecture.md).
 *
 * Each method takes its own family's network (`NetworkOf<F>`); `familyOps(chain)` answers the table's entry for
 * the network's chain, so a caller holding any `Network` reaches the family's code with that family's network
 * (methods, not function properties: their parameters are compared bivariantly, which is what lets the table
 * hold each family's narrower entry).
 */
export interface FamilyOps<F extends ChainFamily = ChainFamily> {
  family: F;

  // Deposit addresses
  /** Whether the pool job pre-derives this family's deposit addresses (deposit_address_pool, lib/jobs/invoice-jobs.ts). */
  pooledAddresses: boolean;
  /** The stored form of the deposit address at `index` of the mnemonic's branch for this family. */
  depositAddress(mnemonic: string, index: number): StoredAddress<F>;

  // Checkout
  /** The deposit address as the payer copies it, from its stored form. */
  payerAddress(stored: string): WireAddress<F>;
  /**
   * A payment URI with token and amount that wallets prefill; null when the family's wallets share none. `token` is the
   * network's token address as configured; `decimals` turns `units` into whole tokens where the URI wants those.
   */
  paymentUri(p: { token: string; chainId: number; to: string; units: bigint | string; decimals: number }): string | null;

  // Chain reads
  /** The rail check: the node's chain id and each token's decimals and symbol against the configuration (check-rail.ts). */
  checkRail(net: NetworkOf<F> & { rpcUrl: string }): Promise<RailProblem[]>;
  /** The head block number. */
  readHead(net: NetworkOf<F> & { rpcUrl: string }, timeoutMs: number): Promise<number>;
  /** Whether the token contract's freeze list `fn` holds `address` (a failed read throws). */
  readFreezeList(net: ReadyNetwork<'rpcUrl' | 'tokenAddress', NetworkOf<F>>, fn: FreezeListFunction, address: WireAddress<F>): Promise<boolean>;
}
