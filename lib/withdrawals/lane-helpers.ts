import { sql } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, parseUnits, type Hex, type PublicClient } from 'viem';
import type { Withdrawal } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { ReadyNetwork } from '@/lib/chain/network';

/** A network whose hot wallet can send: the withdrawal lane needs RPC, token and the hot key. */
export type LaneNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'hotWalletKey'>;

export function transferData(to: `0x${string}`, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
}

export function transferDataOf(w: Pick<Withdrawal, 'destinationAddress' | 'netAmount'>, net: Pick<LaneNetwork, 'decimals'>): Hex {
  return transferData(w.destinationAddress as `0x${string}`, parseUnits(w.netAmount, net.decimals));
}

/** Reserves the hot wallet's next nonce (never below what the chain has seen pending). */
export async function reserveNonce(tx: Db, chainId: number, address: string, chainPending: number): Promise<number> {
  const [row] = rowsOf<{ next_nonce: number }>(
    await tx.execute(sql`
      insert into wallet_nonces (chain_id, address, next_nonce) values (${chainId}, ${address}, ${chainPending})
      on conflict (chain_id, address) do update set next_nonce = greatest(wallet_nonces.next_nonce, excluded.next_nonce)
      returning next_nonce`),
  );
  const nonce = Number(row!.next_nonce);
  await tx.execute(sql`update wallet_nonces set next_nonce = ${nonce + 1} where chain_id = ${chainId} and address = ${address}`);
  return nonce;
}

export async function broadcastRaw(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.request({ method: 'eth_sendRawTransaction', params: [raw] });
  } catch (err) {
    // Already in the pool or mined: tracking decides from the receipt.
    if (!/already known|known transaction|already imported|nonce too low|nonce has already been used/i.test(String((err as Error).message))) throw err;
  }
}
