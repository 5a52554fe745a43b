import type { Address, Hex } from 'viem';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import type { Mode } from '@/lib/mode';
import { DEV_MNEMONIC, PRODUCTION_DEFAULT_CHAIN_ID } from '@/lib/config/network-env';

/** Where one mode's invoices are paid and settled. */
export interface Network {
  mode: Mode;
  /** Wire names: the only chain and token the API offers. */
  chain: 'BSC';
  token: 'USDT';
  chainId: number;
  rpcUrl?: string;
  tokenAddress?: Address;
  decimals: number;
  confirmations: number;
  startBlock?: number;
  depositMnemonic?: string;
  gasWalletKey?: Hex;
  feeWallet?: Address;
  hotWalletKey?: Hex;
  faucetKey?: Hex;
  /** USDT a deposit address must hold before it is swept (gas top-up + transfers); below it, credited but left in place. Unset: always swept. */
  sweepMinimum?: string;
  /** The console warns when the gas wallet holds less BNB than this. */
  gasWalletLowBnb?: string;
}

// Process-wide overrides (tests point test mode at their own anvil); on globalThis
// so every module graph (Next route handlers, workers) sees the same one.
const overrideKey = Symbol.for('gateway.networkOverrides');
type G = typeof globalThis & { [overrideKey]?: Partial<Record<Mode, Network>> };
const g = globalThis as G;

/** Replaces the environment's network for a mode (tests, dev tooling); undefined restores it. */
export function setNetworkOverride(mode: Mode, network: Network | undefined): void {
  g[overrideKey] ??= {};
  if (network) g[overrideKey]![mode] = network;
  else delete g[overrideKey]![mode];
}

/** The network of a mode: an override if set, else the environment (read lazily). */
const BUILT = new WeakMap<object, Partial<Record<Mode, Network>>>();

export function getNetwork(mode: Mode): Network {
  const override = g[overrideKey]?.[mode];
  if (override) return override;
  // Built once per parsed environment: callers (and caches keyed by the network) see one frozen object.
  const e = env();
  let byMode = BUILT.get(e);
  if (!byMode) BUILT.set(e, (byMode = {}));
  return (byMode[mode] ??= Object.freeze(buildNetwork(e, mode)));
}

function buildNetwork(e: ReturnType<typeof env>, mode: Mode): Network {
  const dev = e.APP_ENV !== 'production';
  const p = mode === 'live' ? 'LIVE' : 'TEST';
  return {
    mode,
    chain: 'BSC',
    token: 'USDT',
    // Outside production an unset chain id is anvil's default, so invoices can be created without a chain;
    // in production the test network is never the live chain (env() refuses equal ids).
    chainId: e[`${p}_CHAIN_ID`] ?? (dev ? (mode === 'live' ? 31338 : 31337) : PRODUCTION_DEFAULT_CHAIN_ID[mode]),
    rpcUrl: e[`${p}_RPC_URL`],
    tokenAddress: e[`${p}_TOKEN_ADDRESS`] as Address | undefined,
    decimals: e[`${p}_TOKEN_DECIMALS`],
    confirmations: e[`${p}_CONFIRMATIONS`],
    startBlock: e[`${p}_START_BLOCK`],
    depositMnemonic: e[`${p}_DEPOSIT_MNEMONIC`] ?? (dev ? DEV_MNEMONIC : undefined),
    gasWalletKey: e[`${p}_GAS_WALLET_PRIVATE_KEY`] as Hex | undefined,
    feeWallet: e[`${p}_FEE_WALLET_ADDRESS`] as Address | undefined,
    hotWalletKey: e[`${p}_HOT_WALLET_PRIVATE_KEY`] as Hex | undefined,
    faucetKey: mode === 'test' ? (e.TEST_FAUCET_PRIVATE_KEY as Hex | undefined) : undefined,
    sweepMinimum: e[`${p}_SWEEP_MINIMUM_USDT`],
    gasWalletLowBnb: e[`${p}_GAS_WALLET_LOW_BNB`],
  };
}

type Field = 'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'feeWallet' | 'hotWalletKey' | 'faucetKey';
export type ReadyNetwork<F extends Field> = Network & Required<Pick<Network, F>>;

/** The network with the given fields set, or a 503 naming what is missing (never the values). */
export function requireNetwork<F extends Field>(mode: Mode, fields: readonly F[]): ReadyNetwork<F> {
  const net = getNetwork(mode);
  const missing = fields.filter((f) => net[f] === undefined);
  if (missing.length > 0) {
    throw new ApiError('service_unavailable', `The ${mode} network is not configured (missing: ${missing.join(', ')}).`);
  }
  return net as ReadyNetwork<F>;
}

/** True when the network can be watched and settled (used to skip jobs of unconfigured modes). */
export function isNetworkReady(net: Network): net is ReadyNetwork<'rpcUrl' | 'tokenAddress'> {
  return net.rpcUrl !== undefined && net.tokenAddress !== undefined;
}
