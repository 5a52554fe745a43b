import type { Hex } from 'viem';
import { setNetworkOverride, type ReadyNetwork, type TronNetwork } from '@/lib/chain/network';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { tronNodeClient, type TronNodeClient } from '@/lib/chain/tron/node-client';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import type { Mode } from '@/lib/mode';
import { startTronNode, type TronNode, type TronNodeOptions } from '@/devtools/tron-node/tron-node';

export interface TronRail {
  node: TronNode;
  /** The TRON network as the gateway sees it (test mode unless told): the stand-in's chain id, USDT and wallets. */
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'feeWallet' | 'hotWalletKey', TronNetwork>;
  client: TronNodeClient;
  stop(): Promise<void>;
}

/**
 * Starts the TRON stand-in (docs/tron.md §10) and enables `TRON:USDT` on it for a mode, as a network override
 * (enabled whatever RAILS says). Wallets are the stand-in's funded accounts: `gas` is the energy wallet (stakes
 * and delegates), `hot` the custody and withdrawal wallet, `fee` the fee wallet; deposit addresses come from the
 * dev mnemonic's TRON branch. `stop()` removes the override and stops the node.
 */
export async function startTronRail(opts: { mode?: Mode; node?: TronNodeOptions } = {}): Promise<TronRail> {
  const node = await startTronNode(opts.node);
  const rail = await tronRailOn(node, opts.mode);
  return {
    node,
    ...rail,
    async stop() {
      await rail.stop();
      await node.stop();
    },
  };
}

/**
 * The TRON network on a stand-in already running (in this process, or another: the volume bench runs it in its
 * own process, as a real node is another machine), enabled for a mode as startTronRail does. `stop()` only
 * removes the override.
 */
export async function tronRailOn(node: Pick<TronNode, 'url' | 'usdtHex' | 'keys'>, mode: Mode = 'test'): Promise<Omit<TronRail, 'node'>> {
  const client = tronNodeClient({ url: node.url, timeoutMs: 5_000 });
  const [chainIdHex] = await client.jsonRpc([{ method: 'eth_chainId', params: [] }]);
  const key = (k: { privateKey: string }) => `0x${k.privateKey}` as Hex;
  // The stand-in names accounts and contracts `41…`; the network writes them `T…`, as the codec makes them.
  const tron = (hex41: string) => TRON_ADDRESS_CODEC.wireForm(TRON_ADDRESS_CODEC.accountBytes(hex41));
  const usdt = tron(node.usdtHex);
  const net = Object.freeze({
    family: 'tron' as const,
    mode,
    chain: 'TRON' as const,
    token: 'USDT' as const,
    chainId: Number(chainIdHex),
    rpcUrl: node.url,
    tokenAddress: usdt,
    decimals: 6,
    confirmations: 19,
    depositMnemonic: DEV_MNEMONIC,
    gasWalletKey: key(node.keys.gas),
    hotWalletKey: key(node.keys.hot),
    feeWallet: tron(node.keys.fee.hex),
    minWithdrawal: '1.00',
    networkFee: '1.00',
    sweepMinimum: '1.00',
    gasCoinUsd: '0.27',
    tokens: [{ asset: 'USDT' as const, address: usdt, decimals: 6, symbols: ['USDT'] }],
  });
  setNetworkOverride(mode, net);
  return {
    net,
    client,
    async stop() {
      setNetworkOverride(mode, undefined, 'TRON');
    },
  };
}
