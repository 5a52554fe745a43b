import type { Network } from './network';
import { resultOf, rpcBatch, RpcReadError } from './rpc-batch';

/**
 * What an address is on a network: `none` (no code: a key-held account), `delegated` (an EIP-7702
 * account: still held by its key, its code only a pointer, `0xef0100` + 20 bytes) or `contract`.
 * A failed read throws RpcReadError: no code is never assumed.
 */
export async function readCode(net: Pick<Network, 'rpcUrl'>, address: string): Promise<'none' | 'delegated' | 'contract'> {
  if (!net.rpcUrl) throw new RpcReadError('no RPC URL for this network');
  const [outcome] = await rpcBatch(net.rpcUrl, [{ method: 'eth_getCode', params: [address, 'latest'] }]);
  const code = resultOf(outcome!, 'eth_getCode');
  if (typeof code !== 'string' || !/^0x[0-9a-fA-F]*$/.test(code)) throw new RpcReadError('eth_getCode answered no hex code');
  if (code === '0x') return 'none';
  return /^0xef0100[0-9a-fA-F]{40}$/i.test(code) ? 'delegated' : 'contract';
}
