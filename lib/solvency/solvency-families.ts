import type { Network } from '@/lib/chain/network';
import type { ChainFamily } from '@/lib/config/rails';
import { coinGasFloor, energyGasFloor, type GasFloor } from './network-lines';
import { readChainHoldings, type ChainHoldings } from './read-chain';
import { readTronHoldings } from './read-tron';

interface SolvencyFamily {
  /** The network's holdings at one block (run-solvency.ts). */
  readHoldings(
    net: Network,
    deposits: Map<string, Set<string>>,
    loadHashes: () => Promise<string[]>,
    opts: { timeoutMs?: number },
  ): Promise<ChainHoldings>;
  /** The gas line's asset and floor (network-lines.ts). */
  gasFloor(net: Network): GasFloor;
}

/** How each family's holdings are read and its gas wallet measured (lazy bodies: network-lines.ts imports this module). */
export const SOLVENCY_FAMILIES: Record<ChainFamily, SolvencyFamily> = {
  evm: { readHoldings: (...a) => readChainHoldings(...a), gasFloor: (net) => coinGasFloor(net) },
  tron: { readHoldings: (...a) => readTronHoldings(...a), gasFloor: (net) => energyGasFloor(net) },
};
