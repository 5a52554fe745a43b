import type { Network, NetworkOf } from '@/lib/chain/network';
import type { ChainFamily } from '@/lib/config/rails';
import { coinGasFloor, energyGasFloor, type GasFloor } from './network-lines';
import { readChainHoldings, type ChainHoldings } from './read-chain';
import { readTronHoldings } from './read-tron';
import { readSolanaHoldings, solanaGasFloor } from './read-solana';

interface SolvencyFamily<F extends ChainFamily = ChainFamily> {
  /** The network's holdings at one block (run-solvency.ts). */
  readHoldings(
    net: NetworkOf<F>,
    deposits: Map<string, Set<string>>,
    loadHashes: () => Promise<string[]>,
    opts: { timeoutMs?: number },
  ): Promise<ChainHoldings>;
  /** The gas line's asset and floor (network-lines.ts). */
  gasFloor(net: NetworkOf<F>): GasFloor;
}

/** How each family's holdings are read and its gas wallet measured (lazy bodies: network-lines.ts imports this module). */
export const SOLVENCY_FAMILIES: { [F in ChainFamily]: SolvencyFamily<F> } = {
  evm: { readHoldings: (...a) => readChainHoldings(...a), gasFloor: (net) => coinGasFloor(net) },
  tron: { readHoldings: (...a) => readTronHoldings(...a), gasFloor: (net) => energyGasFloor(net) },
  solana: { readHoldings: (...a) => readSolanaHoldings(...a), gasFloor: (net) => solanaGasFloor(net) },
};

/** The network's family's entry, taking that network (its methods are the family's, chosen by `net.family`). */
export const solvencyFamily = (net: Network): SolvencyFamily => SOLVENCY_FAMILIES[net.family];
