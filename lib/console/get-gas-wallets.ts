import { formatEther, parseEther } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { getNetwork } from '@/lib/chain/network';
import { publicClient } from '@/lib/chain/clients';
import { log } from '@/lib/log';
import { MODES, type Mode } from '@/lib/mode';

export type GasWalletStatus =
  | { mode: Mode; chainId: number; state: 'not_configured' }
  | { mode: Mode; chainId: number; state: 'unavailable'; address: string; lowAt: string }
  | { mode: Mode; chainId: number; state: 'ok' | 'low'; address: string; balance: string; lowAt: string };

const TIMEOUT_MS = 5_000;

/**
 * The gas wallet's BNB per network (mode), which pays every sweep's top-up.
 * A failed or slow read is "unavailable", never a balance of 0: the console
 * must not show an empty wallet it has not seen, nor hide one it could not read.
 */
export async function getGasWallets(modes: readonly Mode[] = MODES): Promise<GasWalletStatus[]> {
  return Promise.all(
    modes.map(async (mode): Promise<GasWalletStatus> => {
      const net = getNetwork(mode);
      if (!net.rpcUrl || !net.gasWalletKey) return { mode, chainId: net.chainId, state: 'not_configured' };
      const address = privateKeyToAddress(net.gasWalletKey);
      const lowAt = net.gasWalletLowBnb ?? '0.05';
      try {
        const wei = await Promise.race([
          publicClient(net.rpcUrl).getBalance({ address }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref?.()),
        ]);
        return { mode, chainId: net.chainId, state: wei < parseEther(lowAt) ? 'low' : 'ok', address, balance: formatEther(wei), lowAt };
      } catch (err) {
        log.warn('gas wallet balance read failed', { mode, error: err instanceof Error ? err.message.split('\n')[0] : String(err) });
        return { mode, chainId: net.chainId, state: 'unavailable', address, lowAt };
      }
    }),
  );
}
