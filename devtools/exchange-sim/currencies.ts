/**
 * The simulator's currency book: FixedFloat-style codes, coins and networks,
 * a USD price per unit, the amount precision and the per-currency limits in
 * USD. A few entries are switched off (send/recv false, maintenance) so the
 * gateway's handling of them can be exercised.
 */
export interface SimCurrency {
  code: string;
  coin: string;
  network: string;
  name: string;
  send: boolean;
  recv: boolean;
  /** Memo/tag field name when the network needs one (XRP, XLM, ...). */
  tag: string | null;
  usd: string;
  precision: number;
  /** Address shape for generated deposit addresses. */
  addr: 'evm' | 'btc' | 'ltc' | 'trx' | 'sol' | 'xrp' | 'base58' | 'bech';
  maintenance?: boolean;
}

type Row = [
  code: string,
  coin: string,
  network: string,
  name: string,
  usd: string,
  precision: number,
  addr: SimCurrency['addr'],
  tag?: string | null,
  flags?: string,
];

// [code, coin, network, name, usd, precision, address kind, tag, flags: s=send off, r=recv off, m=maintenance]
const ROWS: Row[] = [
  ['BTC', 'BTC', 'BTC', 'Bitcoin', '64000', 8, 'btc'],
  ['BTCLN', 'BTC', 'LN', 'Bitcoin (Lightning)', '64000', 8, 'bech', null, 's'],
  ['BSC', 'BNB', 'BSC', 'BNB Smart Chain', '580', 8, 'evm'],
  ['ETH', 'ETH', 'ETH', 'Ethereum', '3100', 8, 'evm'],
  ['ETHBSC', 'ETH', 'BSC', 'Ethereum (BEP20)', '3100', 8, 'evm'],
  ['ETHARB', 'ETH', 'ARBITRUM', 'Ethereum (Arbitrum)', '3100', 8, 'evm'],
  ['ETHOP', 'ETH', 'OPTIMISM', 'Ethereum (Optimism)', '3100', 8, 'evm'],
  ['ETHBASE', 'ETH', 'BASE', 'Ethereum (Base)', '3100', 8, 'evm'],
  ['ETHZKSYNC', 'ETH', 'ZKSYNC', 'Ethereum (zkSync)', '3100', 8, 'evm'],
  ['USDTBSC', 'USDT', 'BSC', 'Tether (BEP20)', '1', 6, 'evm'],
  ['USDT', 'USDT', 'ETH', 'Tether (ERC20)', '1', 6, 'evm'],
  ['USDTTRC', 'USDT', 'TRX', 'Tether (TRC20)', '1', 6, 'trx'],
  ['USDTSOL', 'USDT', 'SOL', 'Tether (Solana)', '1', 6, 'sol'],
  ['USDTPOLY', 'USDT', 'MATIC', 'Tether (Polygon)', '1', 6, 'evm'],
  ['USDTARB', 'USDT', 'ARBITRUM', 'Tether (Arbitrum)', '1', 6, 'evm'],
  ['USDTTON', 'USDT', 'TON', 'Tether (TON)', '1', 6, 'base58', 'Memo'],
  ['USDC', 'USDC', 'ETH', 'USD Coin (ERC20)', '1', 6, 'evm'],
  ['USDCBSC', 'USDC', 'BSC', 'USD Coin (BEP20)', '1', 6, 'evm'],
  ['USDCSOL', 'USDC', 'SOL', 'USD Coin (Solana)', '1', 6, 'sol'],
  ['USDCPOLY', 'USDC', 'MATIC', 'USD Coin (Polygon)', '1', 6, 'evm'],
  ['USDCARB', 'USDC', 'ARBITRUM', 'USD Coin (Arbitrum)', '1', 6, 'evm'],
  ['USDCBASE', 'USDC', 'BASE', 'USD Coin (Base)', '1', 6, 'evm'],
  ['DAI', 'DAI', 'ETH', 'Dai', '1', 6, 'evm'],
  ['TUSD', 'TUSD', 'ETH', 'TrueUSD', '1', 6, 'evm', null, 'm'],
  ['LTC', 'LTC', 'LTC', 'Litecoin', '82', 8, 'ltc'],
  ['BCH', 'BCH', 'BCH', 'Bitcoin Cash', '470', 8, 'btc'],
  ['DOGE', 'DOGE', 'DOGE', 'Dogecoin', '0.16', 8, 'base58'],
  ['DASH', 'DASH', 'DASH', 'Dash', '28', 8, 'base58'],
  ['ZEC', 'ZEC', 'ZEC', 'Zcash', '35', 8, 'base58'],
  ['XMR', 'XMR', 'XMR', 'Monero', '165', 8, 'base58'],
  ['XRP', 'XRP', 'XRP', 'Ripple', '0.52', 6, 'xrp', 'Destination tag'],
  ['XLM', 'XLM', 'XLM', 'Stellar', '0.11', 7, 'base58', 'Memo'],
  ['TRX', 'TRX', 'TRX', 'Tron', '0.12', 6, 'trx'],
  ['SOL', 'SOL', 'SOL', 'Solana', '145', 8, 'sol'],
  ['TON', 'TON', 'TON', 'Toncoin', '6.9', 8, 'base58', 'Memo'],
  ['ADA', 'ADA', 'ADA', 'Cardano', '0.45', 6, 'bech'],
  ['DOT', 'DOT', 'DOT', 'Polkadot', '6.8', 8, 'base58'],
  ['ATOM', 'ATOM', 'ATOM', 'Cosmos', '8.1', 6, 'bech', 'Memo'],
  ['AVAX', 'AVAX', 'AVAXC', 'Avalanche (C-Chain)', '34', 8, 'evm'],
  ['MATIC', 'MATIC', 'ETH', 'Polygon (ERC20)', '0.7', 8, 'evm'],
  ['POL', 'POL', 'MATIC', 'Polygon', '0.7', 8, 'evm'],
  ['ARB', 'ARB', 'ARBITRUM', 'Arbitrum', '1.05', 8, 'evm'],
  ['OP', 'OP', 'OPTIMISM', 'Optimism', '2.3', 8, 'evm'],
  ['LINK', 'LINK', 'ETH', 'Chainlink', '17', 8, 'evm'],
  ['UNI', 'UNI', 'ETH', 'Uniswap', '9.5', 8, 'evm'],
  ['AAVE', 'AAVE', 'ETH', 'Aave', '95', 8, 'evm'],
  ['MKR', 'MKR', 'ETH', 'Maker', '2800', 8, 'evm'],
  ['SHIB', 'SHIB', 'ETH', 'Shiba Inu', '0.000024', 0, 'evm'],
  ['SHIBBSC', 'SHIB', 'BSC', 'Shiba Inu (BEP20)', '0.000024', 0, 'evm'],
  ['PEPE', 'PEPE', 'ETH', 'Pepe', '0.0000115', 0, 'evm'],
  ['CAKE', 'CAKE', 'BSC', 'PancakeSwap', '2.6', 8, 'evm'],
  ['BTT', 'BTT', 'TRX', 'BitTorrent', '0.0000012', 0, 'trx'],
  ['WBTC', 'WBTC', 'ETH', 'Wrapped Bitcoin', '64000', 8, 'evm'],
  ['ETC', 'ETC', 'ETC', 'Ethereum Classic', '27', 8, 'evm'],
  ['XTZ', 'XTZ', 'XTZ', 'Tezos', '0.95', 6, 'base58'],
  ['EOS', 'EOS', 'EOS', 'EOS', '0.78', 4, 'base58', 'Memo'],
  ['ALGO', 'ALGO', 'ALGO', 'Algorand', '0.18', 6, 'base58'],
  ['NEAR', 'NEAR', 'NEAR', 'Near', '5.9', 8, 'base58'],
  ['FTM', 'FTM', 'FTM', 'Fantom', '0.68', 8, 'evm', null, 'r'],
  ['KAS', 'KAS', 'KAS', 'Kaspa', '0.16', 8, 'bech'],
  ['APT', 'APT', 'APT', 'Aptos', '8.7', 8, 'evm'],
  ['SUI', 'SUI', 'SUI', 'Sui', '1.1', 8, 'evm'],
  ['XEM', 'XEM', 'XEM', 'NEM', '0.03', 6, 'base58', 'Message', 'm'],
  ['BAT', 'BAT', 'ETH', 'Basic Attention Token', '0.24', 8, 'evm'],
  ['MANA', 'MANA', 'ETH', 'Decentraland', '0.42', 8, 'evm'],
  ['GRT', 'GRT', 'ETH', 'The Graph', '0.27', 8, 'evm'],
  ['ZRX', 'ZRX', 'ETH', '0x', '0.45', 8, 'evm'],
  ['1INCH', '1INCH', 'ETH', '1inch', '0.41', 8, 'evm'],
  ['XAUT', 'XAUT', 'ETH', 'Tether Gold', '2350', 8, 'evm'],
  ['PAXG', 'PAXG', 'ETH', 'PAX Gold', '2350', 8, 'evm'],
];

export const SIM_CURRENCIES: SimCurrency[] = ROWS.map(([code, coin, network, name, usd, precision, addr, tag, flags]) => ({
  code,
  coin,
  network,
  name,
  usd,
  precision,
  addr,
  tag: tag ?? null,
  send: !flags?.includes('s') && !flags?.includes('m'),
  recv: !flags?.includes('r') && !flags?.includes('m'),
  ...(flags?.includes('m') ? { maintenance: true } : {}),
}));

export const SIM_CURRENCY_BY_CODE = new Map(SIM_CURRENCIES.map((c) => [c.code, c]));

/** Per-pair limits in USD: the same for every pair here (FixedFloat's real ones vary with reserves). */
export const LIMIT_MIN_USD = '5';
export const LIMIT_MAX_USD = '50000';
