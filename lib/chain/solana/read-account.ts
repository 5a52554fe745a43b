import type { Address } from '@solana/kit';
import type { SolanaAccountInfo } from './destination-rule';
import { SolanaRpcError, type SolanaRpc } from './rpc';

/** The account at `address` at `confirmed`, its data decoded (null when none); a failed or non-base64 read throws. */
export async function readSolanaAccount(rpc: SolanaRpc, address: Address | string): Promise<SolanaAccountInfo> {
  const { value } = await rpc.call('getAccountInfo', [address, { encoding: 'base64', commitment: 'confirmed' }]);
  if (!value) return null;
  if (!Array.isArray(value.data) || value.data[1] !== 'base64') throw new SolanaRpcError('getAccountInfo', 'the account data is not base64');
  return { owner: value.owner, data: new Uint8Array(Buffer.from(value.data[0], 'base64')), executable: value.executable };
}
