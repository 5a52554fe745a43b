import type { Network, ReadyNetwork } from '@/lib/chain/network';
import type { SettleHooks } from '@/lib/settlements/settle-invoice';
import type { Asset, ChainKey } from '@/lib/config/rails';

/**
 * One local chain of the rail matrix, whatever its family: what a test needs to pay, mine and read on it in
 * the family's own address form. A family without one cannot have a rail in the dev stack
 * (matrix-coverage.test.ts): its rows could not run.
 */
export interface MatrixChain {
  chain: ChainKey;
  /** The test mode's network on this chain (an override for the test file), every token of the chain enabled, its default costs. */
  net: MatrixNetwork;
  /** Pays `amount` (token units, up to the token's decimals) of `asset` to `to` from a new payer's own wallet; answers the payer's wire address. */
  pay(to: string, asset: Asset, amount: string): Promise<string>;
  /** Mines blocks (enough of them confirm a payment and a withdrawal: `confirmations`). */
  mine(blocks: number): Promise<void>;
  /** The gateway's hot and fee wallets on this chain, in the wire form. */
  wallets: { hot: string; fee: string };
  /**
   * Where a sweep leaves the invoice fee: the fee wallet (EVM: a transfer of its own), or the hot wallet (TRON: one
   * transfer of everything, since a deposit's free bandwidth pays for one; lib/settlements/tron/sweep-tron.ts).
   */
  sweptFeeTo: 'fee' | 'hot';
  /** Blocks that make a payment or a transaction final on this chain. */
  confirmations: number;
  /** What a wire address holds of a token, in token units (formatUnits at its decimals). */
  held(address: string, asset: Asset): Promise<string>;
  /** A new address of the family nobody holds, in its wire form. */
  freshAddress(): string;
  /** What settling needs between its waits (TRON: a block; EVM: nothing). */
  settleHooks?: SettleHooks;
  stop(): Promise<void>;
}

/** Starts a matrix chain standing for `chain` with `assets` deployed at the rails table's decimals. */
export type MatrixChainStarter = (chain: ChainKey, assets: readonly Asset[]) => Promise<MatrixChain>;

/** A network the matrix can pay, settle and send on: every wallet and contract set. */
export type MatrixNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'feeWallet' | 'hotWalletKey'>;

/** The network, checked to have what the matrix needs (a chain helper that left one out fails here, by name). */
export function matrixNetwork(net: Network): MatrixNetwork {
  if (!isMatrixReady(net)) throw new Error(`${net.chain}: a matrix network needs every wallet set`);
  return net;
}

const isMatrixReady = (n: Network): n is MatrixNetwork =>
  Boolean(n.rpcUrl && n.tokenAddress && n.depositMnemonic && n.gasWalletKey && n.feeWallet && n.hotWalletKey);
