import type { Address } from 'viem';

/** Networks the gateway can watch and pay on (wire names, as `chain` on invoices and withdrawals). */
export const CHAINS = ['BSC', 'ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON', 'SOLANA'] as const;
export type ChainKey = (typeof CHAINS)[number];

/** A network's wire name read from outside the types (a raw SQL row, a query string). */
export const isChainKey = (value: unknown): value is ChainKey => (CHAINS as readonly unknown[]).includes(value);

/** Assets: a balance is kept per asset, whichever network the money arrived on. */
export const ASSETS = ['USDT', 'USDC'] as const;
export type Asset = (typeof ASSETS)[number];

/** An asset's name read from outside the types. */
export const isAsset = (value: unknown): value is Asset => (ASSETS as readonly unknown[]).includes(value);

export interface TokenSpec {
  /**
   * The mainnet contract (live mode in production defaults to it). On TRON its 20 bytes in `0x` form, what TVM logs
   * and JSON-RPC carry (`TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t` is `41` + these bytes).
   */
  mainnet: Address;
  /** Decimals of the real contract: 18 for both stablecoins on BSC, 6 everywhere else. */
  decimals: number;
  /**
   * What the contract's symbol() may answer (the rail check refuses anything else). Default: the asset's
   * name. Tether renamed its bridged USDT on some networks to USDT0 (`USD₮0`), so those accept that too.
   */
  symbols?: readonly string[];
  /**
   * The contract's own freeze list, read before money is sent to an address (lib/chain/freeze-list.ts): the view
   * function answering whether a holder is frozen, or null when the contract has none. Tokens sent to a frozen
   * holder are lost, so every rail states it.
   */
  freezeList: FreezeListFunction | null;
  /**
   * The contract has EIP-2612 `permit` (Circle's FiatToken v2: USDC wherever Circle issues it): a payer allows the
   * subscription collector by signature, without a transaction (docs/subscriptions.md). Binance-Peg tokens and USDT do not.
   */
  permit?: boolean;
}

/**
 * How each issuer's contract names its freeze list: Tether's original USDT (Ethereum, TRON) `isBlackListed`,
 * Tether's upgradeable USDT (USDT0 on Arbitrum and Polygon, `WithBlockedList`) `isBlocked`, Circle's USDC
 * (FiatToken, every network Circle issues on) `isBlacklisted`. Each takes an address and returns a bool.
 */
export const FREEZE_LIST_FUNCTIONS = ['isBlackListed', 'isBlocked', 'isBlacklisted'] as const;
export type FreezeListFunction = (typeof FREEZE_LIST_FUNCTIONS)[number];

/** The freeze list of a rail's token contract, or null when it has none. */
export function freezeListOf(chain: ChainKey, asset: Asset): FreezeListFunction | null {
  return CHAIN_SPECS[chain].tokens[asset]?.freezeList ?? null;
}

/** Whether a rail's token takes an EIP-2612 permit (TokenSpec.permit). */
export function hasPermit(chain: ChainKey, asset: Asset): boolean {
  return CHAIN_SPECS[chain].tokens[asset]?.permit === true;
}

/** The symbols a token of the table may report: its own list, else the asset's name. */
export function expectedSymbols(chain: ChainKey, asset: Asset): readonly string[] {
  return CHAIN_SPECS[chain].tokens[asset]?.symbols ?? [asset];
}

const USDT0 = ['USDT', 'USDT0', 'USD₮0'] as const;

/**
 * How a network is read, signed for and paid for (docs/tron.md): `evm` (viem, nonces, gas topped up in the native
 * coin), `tron` (TRON's HTTP API, reference block + expiration, energy delegated from staked TRX) or `solana`
 * (JSON-RPC at commitments, ed25519 keys, SPL token accounts; docs/solana.md).
 */
export type ChainFamily = 'evm' | 'tron' | 'solana';

export interface ChainSpec {
  key: ChainKey;
  name: string;
  family: ChainFamily;
  /** The token standard wallets name on this network ("BEP-20" on BSC): payers pick the network by it. */
  tokenStandard: 'BEP-20' | 'ERC-20' | 'TRC-20' | 'SPL';
  /**
   * Chain ids in production: live is mainnet, test the public testnet. TRON's are the last 4 bytes of the genesis
   * block id (what its JSON-RPC `eth_chainId` answers); Nile's exceeds int4, hence bigint columns.
   */
  chainId: { live: number; test: number };
  /** Local development chain ids (anvil), distinct per network and mode. */
  devChainId: { live: number; test: number };
  /** Typical block interval, for the checkout's time estimate and the watcher's poll. */
  blockTimeMs: number;
  /** Default blocks on top of a payment's block before it counts (see docs/invoices.md "Rails"). */
  confirmations: number;
  /** Pays gas: the gas wallet tops deposit addresses up in it. */
  nativeCoin: string;
  /** Decimals of the gas coin's base unit (wei 18, sun 6): gas_spend records costs in that unit. */
  nativeDecimals: number;
  tokens: Partial<Record<Asset, TokenSpec>>;
  /**
   * Set while a network's rails are not offered (why, in words): they are in no list of rails (ALL_RAILS: forms,
   * the exchange, the rail matrix) and RAILS refuses them, so only a test's network override can enable one.
   */
  notOffered?: string;
}

/**
 * Every supported rail's network facts. Confirmations follow each network's
 * practice: BSC's fast finality makes a block final about two blocks later (5 ≈ 2.3 s);
 * Ethereum finalizes after two epochs (~13 min) but reorgs deeper than a few
 * blocks have not happened since the merge (12 ≈ 2.4 min, the exchanges' usual figure);
 * Polygon PoS had deep reorgs before its 2025 finality upgrade (32 ≈ 64 s keeps a margin);
 * Arbitrum and Base blocks come from a single sequencer whose order only changes
 * if it misbehaves before posting to L1 (20 ≈ 5 s and 10 ≈ 20 s).
 */
export const CHAIN_SPECS: Record<ChainKey, ChainSpec> = {
  BSC: {
    key: 'BSC',
    family: 'evm',
    name: 'BNB Smart Chain',
    tokenStandard: 'BEP-20',
    chainId: { live: 56, test: 97 },
    devChainId: { live: 31338, test: 31337 },
    blockTimeMs: 450,
    confirmations: 5,
    nativeCoin: 'BNB',
    nativeDecimals: 18,
    // Binance-Peg BEP-20 tokens: no freeze list in the contract.
    tokens: {
      USDT: { mainnet: '0x55d398326f99059fF775485246999027B3197955', decimals: 18, freezeList: null },
      USDC: { mainnet: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18, freezeList: null },
    },
  },
  ETHEREUM: {
    key: 'ETHEREUM',
    family: 'evm',
    name: 'Ethereum',
    tokenStandard: 'ERC-20',
    chainId: { live: 1, test: 11155111 },
    devChainId: { live: 31348, test: 31347 },
    blockTimeMs: 12_000,
    confirmations: 12,
    nativeCoin: 'ETH',
    nativeDecimals: 18,
    tokens: {
      USDT: { mainnet: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6, freezeList: 'isBlackListed' },
      USDC: { mainnet: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6, freezeList: 'isBlacklisted', permit: true },
    },
  },
  POLYGON: {
    key: 'POLYGON',
    family: 'evm',
    name: 'Polygon PoS',
    tokenStandard: 'ERC-20',
    chainId: { live: 137, test: 80002 },
    devChainId: { live: 31358, test: 31357 },
    blockTimeMs: 2_000,
    confirmations: 32,
    nativeCoin: 'POL',
    nativeDecimals: 18,
    tokens: {
      USDT: { mainnet: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6, symbols: USDT0, freezeList: 'isBlocked' },
      USDC: { mainnet: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6, freezeList: 'isBlacklisted', permit: true },
    },
  },
  ARBITRUM: {
    key: 'ARBITRUM',
    family: 'evm',
    name: 'Arbitrum One',
    tokenStandard: 'ERC-20',
    chainId: { live: 42161, test: 421614 },
    devChainId: { live: 31368, test: 31367 },
    blockTimeMs: 250,
    confirmations: 20,
    nativeCoin: 'ETH',
    nativeDecimals: 18,
    tokens: {
      USDT: { mainnet: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6, symbols: USDT0, freezeList: 'isBlocked' },
      USDC: { mainnet: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', decimals: 6, freezeList: 'isBlacklisted', permit: true },
    },
  },
  BASE: {
    key: 'BASE',
    family: 'evm',
    name: 'Base',
    tokenStandard: 'ERC-20',
    chainId: { live: 8453, test: 84532 },
    devChainId: { live: 31378, test: 31377 },
    blockTimeMs: 2_000,
    confirmations: 10,
    nativeCoin: 'ETH',
    nativeDecimals: 18,
    tokens: {
      USDC: { mainnet: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, freezeList: 'isBlacklisted', permit: true },
    },
  },
  // TRON: a block every 3 s; irreversible once solidified (19 of 27 super representatives built on it, ~57 s).
  // The watcher confirms at min(solidified, head − confirmations). USDT only: Circle ended USDC on TRON.
  TRON: {
    key: 'TRON',
    family: 'tron',
    name: 'TRON',
    tokenStandard: 'TRC-20',
    chainId: { live: 728126428, test: 3448148188 },
    // The stand-in node's id is its genesis id's last 4 bytes (new per start); dev writes it into TEST_TRON_CHAIN_ID.
    devChainId: { live: 31388, test: 31387 },
    blockTimeMs: 3_000,
    confirmations: 19,
    nativeCoin: 'TRX',
    nativeDecimals: 6,
    tokens: {
      USDT: { mainnet: '0xa614f803B6FD780986A42c78Ec9c7f77e6DeD13C', decimals: 6, freezeList: 'isBlackListed' },
    },
  },
  // Solana (docs/solana.md): a slot every ~400 ms; `finalized` ~32 slots later is what credits. Chain ids: Solana has
  // none; 101 and 103 are mainnet-beta's and devnet's in Solana's token list, kept so the chain_id columns hold one.
  // Mints as their 32 bytes in `0x` form (lib/config cannot encode Base58): USDC EPjFWdd5…Dt1v, USDT Es9vMFrz…c1c3Pn.
  // Both mints have a freeze authority, which freezes a token account, not a list: the destination rule reads that
  // state (lib/chain/solana/destination-rule.ts), so no freeze-list function is declared.
  SOLANA: {
    key: 'SOLANA',
    family: 'solana',
    name: 'Solana',
    tokenStandard: 'SPL',
    chainId: { live: 101, test: 103 },
    devChainId: { live: 31398, test: 31397 },
    blockTimeMs: 400,
    confirmations: 32,
    nativeCoin: 'SOL',
    nativeDecimals: 9,
    tokens: {
      USDT: { mainnet: '0xce010e60afedb22717bd631934475de2963e956a01d0ec331663ae72ad132b09', decimals: 6, freezeList: null },
      USDC: { mainnet: '0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61', decimals: 6, freezeList: null },
    },
  },
};

/** The coin a network's gas is paid in (BNB, ETH, POL, TRX): the one source of its name. */
export const gasCoinOf = (chain: ChainKey): string => CHAIN_SPECS[chain].nativeCoin;

/**
 * The networks the API offers (its request and response enums, hence the OpenAPI document): every network but a
 * not-offered one (`notOffered`, none at present: Solana's was removed once the rail matrix covered it).
 */
export const OFFERED_CHAINS = CHAINS.filter((c) => !CHAIN_SPECS[c].notOffered) as unknown as readonly [ChainKey, ...ChainKey[]];

/** The family of a network (how it is read, signed for and paid for). */
export const familyOf = (chain: ChainKey): ChainFamily => CHAIN_SPECS[chain].family;

/** The networks of a family, in CHAINS order. */
export const chainsOf = (family: ChainFamily): readonly ChainKey[] => CHAINS.filter((c) => familyOf(c) === family);

/** The networks read through viem (local anvil chains in tests and dev); TRON runs on its own stand-in. */
export const EVM_CHAINS: readonly ChainKey[] = chainsOf('evm');

/**
 * The asset fiat rates are quoted in (USDT per unit of fiat): only invoices and links in it take a fiat price;
 * applying the rate to another stablecoin would misprice by its spread to this one.
 */
export const FIAT_QUOTE_ASSET: Asset = 'USDT';

/** Currencies an invoice or link may be priced in besides its token (rates: lib/fiat-rates). */
export const FIAT_CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD'] as const;
export type FiatCurrency = (typeof FIAT_CURRENCIES)[number];
/** What a price is given in: a token, or (FIAT_QUOTE_ASSET only) a fiat currency. */
export type PriceCurrency = Asset | FiatCurrency;

/** A rail: one token on one network, written `CHAIN:TOKEN` in RAILS. */
export interface RailKey {
  chain: ChainKey;
  token: Asset;
}
export type Rail = RailKey;

/** A rail written `CHAIN:TOKEN`, as RAILS, tenant settings and forms carry it. */
export type RailId = `${ChainKey}:${Asset}`;

export const railId = (r: RailKey): RailId => `${r.chain}:${r.token}`;

/** The rail of a `CHAIN:TOKEN` id (typed: no cast at the caller). */
export function splitRailId(id: RailId): RailKey {
  const [chain, token] = id.split(':') as [ChainKey, Asset];
  return { chain, token };
}

/** Every offered (network, token) pair of the table: BSC USDT, BSC USDC, Ethereum USDT and USDC, ..., Solana's two. */
export const ALL_RAILS: readonly RailKey[] = CHAINS.filter((chain) => !CHAIN_SPECS[chain].notOffered).flatMap((chain) =>
  ASSETS.filter((token) => CHAIN_SPECS[chain].tokens[token]).map((token) => ({ chain, token })),
);

/**
 * The default rail: the spec's invoices and withdrawals without `chain`/`token`. Only the API's request
 * schemas and `requestedRail` apply it; no money function has a default network or asset.
 */
export const DEFAULT_RAIL = { chain: 'BSC', token: 'USDT' } as const satisfies RailKey;

/**
 * The rail the unprefixed variables configure (TEST_RPC_URL, TEST_TOKEN_ADDRESS, ...: the spec's first rail); every
 * other network reads <MODE>_<CHAIN>_*, and the unprefixed network's other tokens <MODE>_<CHAIN>_<TOKEN>_ADDRESS.
 */
export const UNPREFIXED_RAIL: RailKey = DEFAULT_RAIL;

/** The rail a request names, the default rail's network or token where it names none (the API's contract). */
export function requestedRail(input: { chain?: ChainKey; token?: Asset }): RailKey {
  return { chain: input.chain ?? DEFAULT_RAIL.chain, token: input.token ?? DEFAULT_RAIL.token };
}

/** Parses RAILS (`BSC:USDT,ETHEREUM:USDC`); the default rail is always enabled. Throws with the bad entry. */
export function parseRails(value: string | undefined): RailKey[] {
  const out: RailKey[] = [DEFAULT_RAIL];
  for (const part of (value ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean)) {
    const [chain, token] = part.split(':');
    const withheld = CHAINS.find((c) => c === chain && CHAIN_SPECS[c].notOffered && CHAIN_SPECS[c].tokens[token as Asset]);
    if (withheld) throw new Error(`rail "${part}" is not offered yet: ${CHAIN_SPECS[withheld].notOffered}`);
    const known = ALL_RAILS.find((r) => r.chain === chain && r.token === token);
    if (!known) throw new Error(`unknown rail "${part}" (known: ${ALL_RAILS.map((r) => `${r.chain}:${r.token}`).join(', ')})`);
    if (!out.some((r) => r.chain === known.chain && r.token === known.token)) out.push(known);
  }
  return out;
}
