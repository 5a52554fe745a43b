import { isAddress, type Address, type Hex } from 'viem';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import type { Mode } from '@/lib/mode';
import { DEV_MNEMONIC, PRODUCTION_DEFAULT_CHAIN_ID } from '@/lib/config/network-env';
import { networkCostsFromEnv } from '@/lib/config/network-costs';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { networkKey, stopGeneration, tokenKey, verdictOf } from './rail-stops';
import type { WireAddress } from './common/address-brand';
import { ADDRESS_CODECS } from './address-codecs';
import type { AddressCodec } from './common/address-codec';
import { EVM_ADDRESS_CODEC } from './evm/address-codec';
import {
  ASSETS,
  CHAIN_SPECS,
  CHAINS,
  DEFAULT_RAIL,
  expectedSymbols,
  familyOf,
  parseRails,
  UNPREFIXED_RAIL,
  type Asset,
  type ChainFamily,
  type ChainKey,
} from '@/lib/config/rails';

/** One token contract a network's watcher reads, in its family's wire form (`0x…` EIP-55, `T…`). */
export interface TokenContract<F extends ChainFamily = ChainFamily> {
  asset: Asset;
  address: WireAddress<F>;
  decimals: number;
  /** What symbol() must answer (the rail check): `<…>_SYMBOL` when set, else the rails table's; unset: the asset's name. */
  symbols?: readonly string[];
}

/**
 * What every network has, whatever its family: `token`, `tokenAddress` and `decimals` are the rail's (settlement,
 * withdrawals); `tokens` lists every enabled token on the network (the watcher reads them all, so a payment in
 * another enabled token is found too). Addresses are the family's brands (common/address-brand.ts), made by its
 * codec; keys are secp256k1 hex on EVM and TRON (the same key holds an EVM and a TRON account), ed25519 seeds on Solana.
 */
interface NetworkBase<F extends ChainFamily> {
  /** The chain family (the rails table's): what narrows a Network to its family's fields. */
  family: F;
  mode: Mode;
  /** Wire names of the rail. */
  chain: ChainKey;
  token: Asset;
  chainId: number;
  rpcUrl?: string;
  tokenAddress?: WireAddress<F>;
  decimals: number;
  confirmations: number;
  startBlock?: number;
  depositMnemonic?: string;
  /** The wallet paying for sweeps: gas top-ups on EVM, staked TRX delegating energy on TRON. */
  gasWalletKey?: Hex;
  feeWallet?: WireAddress<F>;
  hotWalletKey?: Hex;
  faucetKey?: Hex;
  /** What a deposit address must hold to be swept at the gateway's cost. Unset: always swept, free. */
  sweepMinimum?: string;
  /**
   * Below the sweep minimum: the price of the sweep, taken from what it moves; an address holding no more is left
   * in place and not credited (lib/settlements/plan-sweep.ts). Unset: nothing below the minimum is swept.
   */
  sweepFee?: string;
  /** The smallest withdrawal or refund paid on this network (lib/config/network-costs.ts). Unset: 0.01, the spec's. */
  minWithdrawal?: string;
  /** Flat fee on each withdrawal on this network, added to the percentage fee (its gas). Unset: none. */
  networkFee?: string;
  /** USD per unit of the gas coin, to compare gas spent with fees earned (console, gas-drain bench). */
  gasCoinUsd?: string;
  /** Every enabled token contract of the network; unset: only this rail's token. */
  tokens?: TokenContract<F>[];
}

/** A network of the EVM family (BSC, Ethereum, Polygon…): its addresses are viem's `Address`, checked by the EVM codec. */
export interface EvmNetwork extends NetworkBase<'evm'> {
  /** The gas wallet's floor in the network's coin: the console warns and the solvency job alerts below it. */
  gasWalletLow?: string;
  /**
   * The disperse contract (lib/chain/evm/disperse/Disperse.sol) payout items are sent through, many in one
   * transaction (`<MODE>_<CHAIN>_DISPERSE_ADDRESS`). Unset: every item is a transfer of its own.
   */
  disperseAddress?: Address;
  /**
   * The subscription collector (lib/chain/evm/collector/SubscriptionCollector.sol) payers approve for automatic
   * collection (`<MODE>_<CHAIN>_COLLECTOR_ADDRESS`, docs/subscriptions.md). Unset: subscriptions are paid by e-mailed invoice.
   */
  collectorAddress?: Address;
  /**
   * The collector's admin key (`<MODE>_<CHAIN>_COLLECTOR_ADMIN_PRIVATE_KEY`): the pull job allows each period's deposit
   * address with it (setDepositAllowed). Unset: only addresses allowed beforehand are pulled into; others fall back to e-mail.
   */
  collectorAdminKey?: Hex;
}

/** A network of the TRON family: addresses in `T…` form, sweeps paid with energy delegated from staked TRX. */
export interface TronNetwork extends NetworkBase<'tron'> {
  /** A sweep the energy wallet cannot pay with delegated energy may burn TRX instead (`<MODE>_TRON_ALLOW_TRX_BURN`). Unset: refused. */
  allowTrxBurn?: boolean;
  /** The low-funds floor of the energy wallet, in sweeps it can pay with delegated energy (`<MODE>_TRON_ENERGY_LOW_SWEEPS`, default 20). */
  energyLowSweeps?: number;
  /**
   * The subscription collector deployed on TRON (docs/subscriptions.md, "Automatic collection on TRON"): deployed by
   * the energy wallet with consume_user_resource_percent 100, the energy wallet its operator
   * (`<MODE>_TRON_COLLECTOR_ADDRESS`, `T…`). Unset: TRON subscriptions are e-mailed.
   */
  collectorAddress?: WireAddress<'tron'>;
  /** The collector's admin key (allows each period's deposit address), as on EVM. */
  collectorAdminKey?: Hex;
}

/**
 * A network of the Solana family (docs/solana.md): mints as Base58 `tokenAddress`/`tokens`, the wallet keys
 * (`gasWalletKey`: the sweeps' fee payer; `hotWalletKey`) as ed25519 seeds in `0x` hex, deposits at a per-invoice
 * owner's associated token account.
 */
export type SolanaNetwork = NetworkBase<'solana'>;

/**
 * One network of a mode, seen as one of its rails, by family: a family's own fields exist only on its networks,
 * so code reading them takes that family's network (`NetworkOf<'evm'>`), reached through a per-family table
 * (`onFamily`, FamilyOps), never through a branch on `family`.
 */
export type Network = EvmNetwork | TronNetwork | SolanaNetwork;

interface NetworksByFamily {
  evm: EvmNetwork;
  tron: TronNetwork;
  solana: SolanaNetwork;
}

/** The networks of one family (an indexed access, so `FamilyOps<'evm'>` is a `FamilyOps<ChainFamily>`). */
export type NetworkOf<F extends ChainFamily> = NetworksByFamily[F];

/** The members of a network type (a ReadyNetwork too) of one family. */
export type OfFamily<N extends Network, F extends ChainFamily> = Extract<N, { family: F }>;

/** One implementation per family of an operation on a network: each takes its own family's network. */
export type PerFamily<N extends Network, A extends unknown[], R> = { [F in ChainFamily]: (net: OfFamily<N, F>, ...args: A) => R };

/**
 * Calls the network's family's implementation, the network narrowed to that family. The one place a network is
 * matched to its family's code by the type system: sound because `net.family` picks the entry.
 */
export function onFamily<N extends Network, A extends unknown[], R>(net: N, table: PerFamily<N, A, R>, ...args: A): R {
  return (table[net.family] as (net: N, ...args: A) => R)(net, ...args);
}

/** The token contracts a network's watcher reads. */
export function tokensOf<F extends ChainFamily>(net: NetworkBase<F>): TokenContract<F>[] {
  if (net.tokens) return net.tokens;
  return net.tokenAddress ? [{ asset: net.token, address: net.tokenAddress, decimals: net.decimals }] : [];
}

const RAILS_OF = new WeakMap<Network, Map<Asset, Network>>();

/** The network as the rail of one of its tokens (same object each time), or undefined when the token is not enabled there. */
export function railOf<N extends Network>(net: N, asset: Asset): N | undefined {
  if (asset === net.token) return net;
  const t = tokensOf(net).find((c) => c.asset === asset);
  if (!t) return undefined;
  let byAsset = RAILS_OF.get(net);
  if (!byAsset) RAILS_OF.set(net, (byAsset = new Map()));
  let rail = byAsset.get(asset);
  if (!rail) byAsset.set(asset, (rail = withToken(net, t)));
  // The same network with another token (tokenAddress set): whatever fields `net` had ready, the rail has.
  return rail as N;
}

/** The network as the rail of one of its own token contracts (frozen); `tokens` replaced when given. */
function withToken<N extends Network>(net: N, t: TokenContract, tokens?: TokenContract[]): N {
  // `t` is one of `net`'s contracts, so of `net`'s family: the spread keeps the network's family.
  return Object.freeze({ ...net, ...(tokens && { tokens }), token: t.asset, tokenAddress: t.address, decimals: t.decimals }) as unknown as N;
}

// Process-wide overrides (tests point test mode at their own anvil); on globalThis
// so every module graph (Next route handlers, workers) sees the same one.
const overrideKey = Symbol.for('gateway.networkOverrides');
type G = typeof globalThis & { [overrideKey]?: Partial<Record<string, Network>> };
const g = globalThis as G;

/**
 * Replaces the environment's network of a mode and chain (tests, dev tooling);
 * undefined restores it. An overridden network is enabled whatever RAILS says.
 */
export function setNetworkOverride(mode: Mode, network: Network): void;
export function setNetworkOverride(mode: Mode, network: Network | undefined, chain: ChainKey): void;
export function setNetworkOverride(mode: Mode, network: Network | undefined, chain?: ChainKey): void {
  chain ??= network!.chain;
  // A network of the wrong family under a chain's key would be dispatched to the other family's code.
  if (network && network.family !== familyOf(chain))
    throw new Error(`setNetworkOverride: a ${network.family} network for ${network.chain} cannot stand for ${chain}`);
  g[overrideKey] ??= {};
  if (network) g[overrideKey]![`${mode}:${chain}`] = network;
  else delete g[overrideKey]![`${mode}:${chain}`];
}

const BUILT = new WeakMap<object, Partial<Record<string, Network | null>>>();

/**
 * A network of a mode (BSC unless named): an override if set, else the environment's (read lazily), less the
 * rails the rail check stopped; undefined when no enabled rail uses it (or the check stopped them all).
 */
export function findNetwork(mode: Mode, chain: ChainKey): Network | undefined {
  const net = configuredNetwork(mode, chain);
  return net && withoutStoppedRails(net);
}

/** The network as configured, before the rail check's verdicts. */
function configuredNetwork(mode: Mode, chain: ChainKey): Network | undefined {
  const override = g[overrideKey]?.[`${mode}:${chain}`];
  if (override) return override;
  // Built once per parsed environment: callers (and caches keyed by the network) see one frozen object.
  const e = env();
  let built = BUILT.get(e);
  if (!built) BUILT.set(e, (built = {}));
  const k = `${mode}:${chain}`;
  if (!(k in built)) built[k] = chain === DEFAULT_RAIL.chain ? Object.freeze(buildNetwork(e, mode)) : buildExtraNetwork(e, mode, chain);
  return built[k] ?? undefined;
}

/** An enabled network of a mode, always named (no default network). Throws for a network no enabled rail uses. */
export function getNetwork(mode: Mode, chain: ChainKey): Network {
  const net = findNetwork(mode, chain);
  if (!net) throw new ApiError('validation_failed', `The ${chain} network is not enabled on this gateway.`);
  return net;
}

/** Every enabled network of a mode, BSC first: one watcher, settlement run and hot wallet each. */
export function getNetworks(mode: Mode): Network[] {
  return CHAINS.map((c) => findNetwork(mode, c)).filter((n): n is Network => n !== undefined);
}

/** The enabled rail (network as that token's), or undefined. */
export function getRail(mode: Mode, chain: ChainKey, token: Asset): Network | undefined {
  const net = findNetwork(mode, chain);
  return net && railOf(net, token);
}

/** The configured 20 bytes of an EVM address as the EVM codec's brand (the schema checked the form). */
const evmEnv = (v: Address | undefined) => (v === undefined ? undefined : EVM_ADDRESS_CODEC.parse(v));

function buildNetwork(e: ReturnType<typeof env>, mode: Mode): EvmNetwork {
  const dev = e.APP_ENV !== 'production';
  const p = mode === 'live' ? 'LIVE' : 'TEST';
  return {
    // The unprefixed variables are BSC's, an EVM network.
    family: 'evm',
    mode,
    chain: UNPREFIXED_RAIL.chain,
    token: UNPREFIXED_RAIL.token,
    // Outside production an unset chain id is anvil's default, so invoices can be created without a chain;
    // in production the test network is never the live chain (env() refuses equal ids).
    chainId: e[`${p}_CHAIN_ID`] ?? (dev ? (mode === 'live' ? 31338 : 31337) : PRODUCTION_DEFAULT_CHAIN_ID[mode]),
    rpcUrl: e[`${p}_RPC_URL`],
    tokenAddress: evmEnv(e[`${p}_TOKEN_ADDRESS`]),
    decimals: e[`${p}_TOKEN_DECIMALS`],
    confirmations: e[`${p}_CONFIRMATIONS`],
    startBlock: e[`${p}_START_BLOCK`],
    depositMnemonic: e[`${p}_DEPOSIT_MNEMONIC`] ?? (dev ? DEV_MNEMONIC : undefined),
    gasWalletKey: e[`${p}_GAS_WALLET_PRIVATE_KEY`] as Hex | undefined,
    feeWallet: evmEnv(e[`${p}_FEE_WALLET_ADDRESS`]),
    hotWalletKey: e[`${p}_HOT_WALLET_PRIVATE_KEY`] as Hex | undefined,
    faucetKey: mode === 'test' ? (e.TEST_FAUCET_PRIVATE_KEY as Hex | undefined) : undefined,
    disperseAddress: envAddress((e as unknown as RawEnv)[`${p}_${UNPREFIXED_RAIL.chain}_DISPERSE_ADDRESS`]),
    collectorAddress: envAddress((e as unknown as RawEnv)[`${p}_${UNPREFIXED_RAIL.chain}_COLLECTOR_ADDRESS`]),
    collectorAdminKey: (e as unknown as RawEnv)[`${p}_${UNPREFIXED_RAIL.chain}_COLLECTOR_ADMIN_PRIVATE_KEY`] as Hex | undefined,
    ...networkCostsFromEnv(e, mode, UNPREFIXED_RAIL.chain),
    gasWalletLow: e[`${p}_GAS_WALLET_LOW_BNB`],
    tokens: railTokens(e, mode, UNPREFIXED_RAIL.chain, 'evm', {
      [UNPREFIXED_RAIL.token]: {
        address: e[`${p}_TOKEN_ADDRESS`],
        decimals: e[`${p}_TOKEN_DECIMALS`],
        symbol: e[`${p}_TOKEN_SYMBOL`],
      },
    }),
  };
}

type RawEnv = Record<string, unknown>;

/** A checked env address read by a computed name (the schema checked its form; this tells the types). */
const envAddress = (v: unknown): Address | undefined => (typeof v === 'string' && isAddress(v, { strict: false }) ? v : undefined);

/** A checked env contract of any family, as its bytes (`0x…`: 20, or a Solana mint's 32): the family's schema checked it. */
const envBytes = (v: unknown): `0x${string}` | undefined =>
  typeof v === 'string' && /^0x(?:[0-9a-fA-F]{2})+$/.test(v) ? (v as `0x${string}`) : undefined;

/** Tokens development finds without configuration: the Solana stand-in's mints are at fixed addresses. */
const DEV_TOKENS: Partial<Record<ChainKey, Partial<Record<Asset, `0x${string}`>>>> = { SOLANA: SOLANA_DEV.mints };

/**
 * The enabled tokens of a network with a known contract: its variable, else mainnet's on mainnet. Configuration
 * and the rails table give a contract's 20 bytes (`0x…`, TRON's too: lib/config cannot encode `T…`); the family's
 * codec writes them in the family's wire form.
 */
function railTokens<F extends ChainFamily>(
  e: ReturnType<typeof env>,
  mode: Mode,
  chain: ChainKey,
  family: F,
  given: Partial<Record<Asset, { address?: `0x${string}`; decimals: number; symbol?: string }>> = {},
): TokenContract<F>[] {
  const codec: AddressCodec<F> = ADDRESS_CODECS[family];
  const p = mode === 'live' ? 'LIVE' : 'TEST';
  const raw = e as unknown as RawEnv;
  const spec = CHAIN_SPECS[chain];
  const chainId = chainIdOf(e, mode, chain);
  const out: TokenContract<F>[] = [];
  for (const rail of parseRails(e.RAILS)) {
    if (rail.chain !== chain) continue;
    const t = spec.tokens[rail.token]!;
    // <MODE>_<CHAIN>_<TOKEN>_ADDRESS on every network, BSC's USDC included (TEST_BSC_USDC_ADDRESS); BSC USDT is `given`.
    const address =
      given[rail.token]?.address ??
      envBytes(raw[`${p}_${chain}_${rail.token}_ADDRESS`]) ??
      (chainId === spec.chainId.live ? t.mainnet : e.APP_ENV !== 'production' ? DEV_TOKENS[chain]?.[rail.token] : undefined);
    const symbol = given[rail.token]?.symbol ?? (raw[`${p}_${chain}_${rail.token}_SYMBOL`] as string | undefined);
    const symbols = symbol ? [symbol] : expectedSymbols(chain, rail.token);
    if (address) out.push({ asset: rail.token, address: codec.wireForm(address), decimals: given[rail.token]?.decimals ?? t.decimals, symbols });
  }
  return out;
}

function chainIdOf(e: ReturnType<typeof env>, mode: Mode, chain: ChainKey): number {
  const raw = e as unknown as RawEnv;
  const p = mode === 'live' ? 'LIVE' : 'TEST';
  const set = (chain === UNPREFIXED_RAIL.chain ? raw[`${p}_CHAIN_ID`] : raw[`${p}_${chain}_CHAIN_ID`]) as number | undefined;
  const spec = CHAIN_SPECS[chain];
  return set ?? (e.APP_ENV !== 'production' ? spec.devChainId[mode] : spec.chainId[mode]);
}

/**
 * A network other than BSC, when an enabled rail uses it. Every setting is named here (no spread of BSC's
 * network): a setting added to Network must be decided per network. Outside production its wallets default
 * to the mode's BSC ones (the local chains fund the same dev keys); production requires its own (env()
 * refuses to start without them, lib/config/rail-env-problems.ts), so nothing is borrowed there.
 */
function buildExtraNetwork(e: ReturnType<typeof env>, mode: Mode, chain: ChainKey): Network | null {
  if (!parseRails(e.RAILS).some((r) => r.chain === chain)) return null;
  return Object.freeze(extraNetwork(e, mode, chain, CHAIN_SPECS[chain].family));
}

function extraNetwork<F extends ChainFamily>(e: ReturnType<typeof env>, mode: Mode, chain: ChainKey, family: F): NetworkOf<F> {
  const raw = e as unknown as RawEnv;
  const p = mode === 'live' ? 'LIVE' : 'TEST';
  const dev = e.APP_ENV !== 'production';
  const bsc = configuredNetwork(mode, UNPREFIXED_RAIL.chain)!;
  const spec = CHAIN_SPECS[chain];
  const tokens = railTokens(e, mode, chain, family);
  const first = tokens[0];
  const codec: AddressCodec<F> = ADDRESS_CODECS[family];
  const devDefault = <T>(own: T | undefined, bscs: T | undefined) => own ?? (dev ? bscs : undefined);
  const base: NetworkBase<F> = {
    family,
    mode,
    chain,
    token: first?.asset ?? ASSETS.find((a) => spec.tokens[a])!,
    chainId: chainIdOf(e, mode, chain),
    rpcUrl: raw[`${p}_${chain}_RPC_URL`] as string | undefined,
    tokenAddress: first?.address,
    decimals: first?.decimals ?? 6,
    confirmations: (raw[`${p}_${chain}_CONFIRMATIONS`] as number | undefined) ?? spec.confirmations,
    startBlock: raw[`${p}_${chain}_START_BLOCK`] as number | undefined,
    // One mnemonic per mode on every EVM network: a deposit address is the same account everywhere, so money
    // sent on another network than the invoice's is still ours (held payments).
    depositMnemonic: bsc.depositMnemonic,
    gasWalletKey: devDefault(raw[`${p}_${chain}_GAS_WALLET_PRIVATE_KEY`] as Hex | undefined, bsc.gasWalletKey),
    hotWalletKey: devDefault(raw[`${p}_${chain}_HOT_WALLET_PRIVATE_KEY`] as Hex | undefined, bsc.hotWalletKey),
    // The fee wallet is an address, not a key: the same account (its 20 bytes) receives fees on every network
    // whose accounts are 20 bytes, written in this network's family's form (a 32-byte family sets its own).
    feeWallet:
      bsc.feeWallet && codec.byteLength === ADDRESS_CODECS[bsc.family].byteLength
        ? codec.wireForm(ADDRESS_CODECS[bsc.family].accountBytes(bsc.feeWallet))
        : undefined,
    // Test mode's faucet (anvil's funded key in tests and development; unset in production): the network's own
    // when set (the TRON stand-in funds its own accounts), else the mode's.
    faucetKey: mode === 'test' ? ((raw[`TEST_${chain}_FAUCET_PRIVATE_KEY`] as Hex | undefined) ?? bsc.faucetKey) : undefined,
    // Its own costs: Ethereum's gas is not BSC's.
    ...networkCostsFromEnv(e, mode, chain),
    tokens,
  };
  const settings: FamilySettings<F> = FAMILY_SETTINGS[family];
  return settings(base, { raw, p, chain, bsc, dev });
}

/** Sweeps the TRON energy wallet should always be able to pay (the low-funds floor when unset). */
export const DEFAULT_ENERGY_LOW_SWEEPS = 20;

type FamilySettings<F extends ChainFamily> = (
  base: NetworkBase<F>,
  env: { raw: RawEnv; p: 'TEST' | 'LIVE'; chain: ChainKey; bsc: Network; dev: boolean },
) => NetworkOf<F>;

/** The settings only one family's networks have (EVM: the gas wallet's floor, the disperse contract; TRON: burning TRX for energy, the energy wallet's floor). */
const FAMILY_SETTINGS: { [F in ChainFamily]: FamilySettings<F> } = {
  evm: (base, { raw, p, chain, bsc }) => ({
    ...base,
    gasWalletLow:
      (raw[`${p}_${chain}_GAS_WALLET_LOW`] as string | undefined) ??
      onFamily(bsc, { evm: (n) => n.gasWalletLow, tron: () => undefined, solana: () => undefined }),
    disperseAddress: envAddress(raw[`${p}_${chain}_DISPERSE_ADDRESS`]),
    collectorAddress: envAddress(raw[`${p}_${chain}_COLLECTOR_ADDRESS`]),
    collectorAdminKey: raw[`${p}_${chain}_COLLECTOR_ADMIN_PRIVATE_KEY`] as Hex | undefined,
  }),
  tron: (base, { raw, p }) => ({
    ...base,
    allowTrxBurn: raw[`${p}_TRON_ALLOW_TRX_BURN`] === true,
    collectorAddress: optionalWire(ADDRESS_CODECS.tron, envBytes(raw[`${p}_TRON_COLLECTOR_ADDRESS`])),
    collectorAdminKey: raw[`${p}_TRON_COLLECTOR_ADMIN_PRIVATE_KEY`] as Hex | undefined,
    energyLowSweeps: (raw[`${p}_TRON_ENERGY_LOW_SWEEPS`] as number | undefined) ?? DEFAULT_ENERGY_LOW_SWEEPS,
  }),
  // ed25519 keys, never BSC's secp256k1 ones: its own, else the stand-in's in development (lib/config/solana/).
  solana: (base, { raw, p, dev }) => ({
    ...base,
    gasWalletKey: (raw[`${p}_SOLANA_GAS_WALLET_PRIVATE_KEY`] as Hex | undefined) ?? (dev ? SOLANA_DEV.gasWalletKey : undefined),
    hotWalletKey: (raw[`${p}_SOLANA_HOT_WALLET_PRIVATE_KEY`] as Hex | undefined) ?? (dev ? SOLANA_DEV.hotWalletKey : undefined),
    // The worker settles a network only with a fee wallet (canSettle): development gets the stand-in's `fee` wallet.
    feeWallet:
      base.feeWallet ??
      optionalWire(ADDRESS_CODECS.solana, envBytes(raw[`${p}_SOLANA_FEE_WALLET_ADDRESS`]) ?? (dev ? SOLANA_DEV.feeWallet : undefined)),
    // Test mode's payments (POST /v1/test-helpers/invoices/{id}/pay): the stand-in's funded faucet in development.
    faucetKey: p === 'TEST' ? ((raw.TEST_SOLANA_FAUCET_PRIVATE_KEY as Hex | undefined) ?? (dev ? SOLANA_DEV.faucetKey : undefined)) : undefined,
  }),
};

const optionalWire = <F extends ChainFamily>(codec: AddressCodec<F>, bytes: `0x${string}` | undefined) =>
  bytes === undefined ? undefined : codec.wireForm(bytes);

const STOPPED = new WeakMap<Network, { generation: number; net: Network | undefined }>();

/**
 * The network without the rails the rail check stopped (lib/chain/check-rail.ts): undefined when its node
 * is another chain than configured or none of its tokens is left; otherwise the same object while nothing
 * of it is stopped. Costs a counter read when no rail was ever stopped (the usual case).
 */
export function withoutStoppedRails(net: Network): Network | undefined {
  const generation = stopGeneration();
  if (generation === 0) return net;
  const cached = STOPPED.get(net);
  if (cached?.generation === generation) return cached.net;
  const stopped = (v: ReturnType<typeof verdictOf>) => v !== undefined && v !== 'ok';
  const all = tokensOf(net);
  const kept = all.filter((t) => !stopped(verdictOf(tokenKey(net, t))));
  let out: Network | undefined = net;
  if (stopped(verdictOf(networkKey(net))) || (all.length > 0 && kept.length === 0)) out = undefined;
  else if (kept.length < all.length) {
    const first = kept.find((t) => t.asset === net.token) ?? kept[0]!;
    out = withToken(net, first, kept);
  }
  STOPPED.set(net, { generation, net: out });
  return out;
}

type Field = 'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'feeWallet' | 'hotWalletKey' | 'faucetKey';
/** A network (of `N`'s families: `ReadyNetwork<F, EvmNetwork>` for EVM code) with the given fields set. */
export type ReadyNetwork<F extends Field, N extends Network = Network> = N extends Network ? N & Required<Pick<N, F>> : never;

/** The network with the given fields set, or a 503 naming what is missing (never the values). */
export function requireNetwork<F extends Field>(mode: Mode, chain: ChainKey, fields: readonly F[]): ReadyNetwork<F> {
  const net = getNetwork(mode, chain);
  const missing = fields.filter((f) => net[f] === undefined);
  if (missing.length > 0) {
    throw new ApiError('service_unavailable', `The ${mode} ${chain} network is not configured (missing: ${missing.join(', ')}).`);
  }
  return net as ReadyNetwork<F>;
}

/**
 * The enabled rail of a mode with the given fields set: 400 for a rail this
 * gateway does not enable, 503 naming what is missing (never the values).
 */
export function requireRail<F extends Field>(mode: Mode, rail: { chain: ChainKey; token: Asset }, fields: readonly F[]): ReadyNetwork<F> {
  const net = getRail(mode, rail.chain, rail.token);
  if (!net) {
    const enabled = getNetworks(mode).flatMap((n) => tokensOf(n).map((t) => `${n.chain}:${t.asset}`));
    // The field at fault: the network when none of its rails is on, else the token.
    const path = findNetwork(mode, rail.chain) ? 'token' : 'chain';
    throw new ApiError('validation_failed', `${rail.chain} ${rail.token} is not enabled on this gateway (enabled: ${enabled.join(', ')}).`, [
      { path, message: `${rail.chain}:${rail.token} is not an enabled rail (enabled: ${enabled.join(', ')})` },
    ]);
  }
  const missing = fields.filter((f) => net[f] === undefined);
  if (missing.length > 0) {
    throw new ApiError('service_unavailable', `The ${mode} ${rail.chain} network is not configured (missing: ${missing.join(', ')}).`);
  }
  return net as ReadyNetwork<F>;
}

/** True when the network can be watched and settled (used to skip jobs of unconfigured modes). */
export function isNetworkReady(net: Network): net is ReadyNetwork<'rpcUrl' | 'tokenAddress'> {
  return net.rpcUrl !== undefined && net.tokenAddress !== undefined;
}
