import { familyOf, splitRailId, type Asset, type ChainFamily, type ChainKey, type RailId } from '@/lib/config/rails';
import { startEvmMatrixChain } from './evm-chain';
import type { MatrixChain, MatrixChainStarter } from './matrix-chain';
import { startSolanaMatrixChain } from './solana-chain';
import { startTronMatrixChain } from './tron-chain';

export type { MatrixChain };

/** Each family's matrix chain: a family missing here cannot have a dev rail (matrix-coverage.test.ts). */
export const MATRIX_CHAINS: Partial<Record<ChainFamily, MatrixChainStarter>> = {
  evm: startEvmMatrixChain,
  tron: startTronMatrixChain,
  solana: startSolanaMatrixChain,
};

/** The networks of a list of rails, each with the tokens the list enables on it (one chain per network, shared by its rails). */
export function networksOf(rails: readonly RailId[]): Map<ChainKey, Asset[]> {
  const out = new Map<ChainKey, Asset[]>();
  for (const { chain, token } of rails.map(splitRailId)) out.set(chain, [...(out.get(chain) ?? []), token]);
  return out;
}

/** Starts one chain per network of `rails` (side by side). Throws for a family without a matrix chain. */
export async function startMatrixChains(rails: readonly RailId[]): Promise<Map<ChainKey, MatrixChain>> {
  const started = await Promise.all(
    [...networksOf(rails)].map(([chain, assets]) => {
      const start = MATRIX_CHAINS[familyOf(chain)];
      if (!start) throw new Error(`no matrix chain for the ${familyOf(chain)} family (${chain})`);
      return start(chain, assets);
    }),
  );
  return new Map(started.map((c) => [c.chain, c]));
}
