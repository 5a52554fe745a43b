import { ALL_RAILS, OFFERED_CHAINS, type Asset, type ChainKey, type RailKey } from '@/lib/config/rails';
import type { FfCurrency } from './types';
import { USDT_BSC } from './currencies';

interface RailCurrency {
  /** FixedFloat's currency code (what `price`/`create` take as fromCcy/toCcy). */
  code: string;
  /** `coin` in `ccies`: the token's ticker. */
  coin: Asset;
  /** `network` in `ccies` as we expect it, then other spellings to accept for the same network. */
  networks: readonly string[];
}

/**
 * Every rail's FixedFloat currency. Only USDTBSC (coin USDT, network BSC) is
 * confirmed by ../shared/reference (exchange-api.md); the other codes are our
 * best knowledge of FixedFloat's list (they match the local simulator) and are
 * NOT confirmed. Callers must therefore resolve a rail against the live `ccies`
 * list with `resolveRailCurrency`, which goes by (coin, network) first and only
 * then by these codes, rather than sending money to a code blindly.
 */
const NETWORK_ALIASES: Record<ChainKey, readonly string[]> = {
  BSC: ['BSC', 'BEP20'],
  ETHEREUM: ['ETH', 'ERC20', 'ETHEREUM'],
  POLYGON: ['MATIC', 'POLYGON', 'POL'],
  ARBITRUM: ['ARBITRUM', 'ARB'],
  BASE: ['BASE'],
  TRON: ['TRX', 'TRC20', 'TRON'],
  SOLANA: ['SOL', 'SOLANA', 'SPL'],
};

const CODES: Record<ChainKey, Partial<Record<Asset, string>>> = {
  BSC: { USDT: USDT_BSC, USDC: 'USDCBSC' },
  ETHEREUM: { USDT: 'USDT', USDC: 'USDC' },
  POLYGON: { USDT: 'USDTPOLY', USDC: 'USDCPOLY' },
  ARBITRUM: { USDT: 'USDTARB', USDC: 'USDCARB' },
  BASE: { USDC: 'USDCBASE' },
  TRON: { USDT: 'USDTTRC' },
  SOLANA: { USDT: 'USDTSOL', USDC: 'USDCSOL' },
};

/** The static table, one entry per rail of ALL_RAILS (exported for docs and tests). */
export const RAIL_CURRENCIES: readonly (RailKey & RailCurrency)[] = ALL_RAILS.map((r) => {
  const code = CODES[r.chain][r.token];
  if (!code) throw new Error(`rail ${r.chain}:${r.token} has no exchange code`);
  return { ...r, code, coin: r.token, networks: NETWORK_ALIASES[r.chain] };
});

const entryOf = (rail: RailKey) => RAIL_CURRENCIES.find((e) => e.chain === rail.chain && e.token === rail.token);
const norm = (s: string) => s.trim().toUpperCase();

/** The table's FixedFloat code for a rail (unconfirmed except USDTBSC: prefer `resolveRailCurrency`). */
export function railExchangeCode(rail: RailKey): string {
  const e = entryOf(rail);
  if (!e) throw new Error(`unknown rail ${rail.chain}:${rail.token}`);
  return e.code;
}

/** The rail whose static code this is, or null. */
export function railOfExchangeCode(code: string): RailKey | null {
  const e = RAIL_CURRENCIES.find((x) => x.code === norm(code));
  return e ? { chain: e.chain, token: e.token } : null;
}

/** The chain whose network aliases include `network`, or null. */
function chainOfNetwork(network: string): ChainKey | null {
  const n = norm(network);
  return OFFERED_CHAINS.find((k) => NETWORK_ALIASES[k].includes(n)) ?? null;
}

/**
 * The rail's currency in a fetched `ccies` list: the entry with the rail's
 * coin on one of its network spellings (the table's code preferred if several),
 * else the entry with the table's code, provided its coin is the rail's token
 * and its network is not another rail's network. Null: the exchange does not
 * offer this rail, and nothing may be sent. Send/recv flags are left to the caller.
 */
export function resolveRailCurrency(list: readonly FfCurrency[], rail: RailKey): FfCurrency | null {
  const e = entryOf(rail);
  if (!e) return null;
  const byPair = list.filter((c) => norm(c.coin) === e.coin && e.networks.includes(norm(c.network)));
  if (byPair.length > 0) return byPair.find((c) => c.code === e.code) ?? byPair[0];
  const byCode = list.find((c) => c.code === e.code);
  if (!byCode || norm(byCode.coin) !== e.coin) return null;
  const other = chainOfNetwork(byCode.network);
  return other === null || other === rail.chain ? byCode : null;
}
