import { Decimal } from '@/lib/money';

export interface BatchShareInput {
  /** gasUsed × effective gas price of the mined batch transaction, in the gas coin's base unit (wei). */
  costWei: bigint;
  itemCount: number;
  /** USD per unit of the gas coin (`<MODE>_<CHAIN>_GAS_COIN_USD`); unset: the cost cannot be priced in the token. */
  gasCoinUsd: string | undefined;
  /** The gas coin's decimals (18 on every EVM network). */
  nativeDecimals: number;
  /** For the note: `<MODE>_<CHAIN>` and the coin's symbol. */
  setting: string;
  coin: string;
}

/** Each item's share of a batch, in the token; or why there is none (the flat fee is then kept). */
export type BatchShare = { share: Decimal; note: null } | { share: null; note: string };

/**
 * One item's share of a batch transaction's actual cost, in the token: costWei / itemCount in the gas coin, times
 * the coin's USD price (the tokens are USD stablecoins, counted 1:1 as the network fee is), rounded UP to the cent
 * so the items together never pay less than the transaction cost. Pure: bigint wei in, decimal.js out.
 */
export function batchShare(i: BatchShareInput): BatchShare {
  if (i.itemCount <= 0 || i.costWei < 0n) return { share: null, note: 'the batch cost is unknown: the flat network fee is kept' };
  const price = i.gasCoinUsd === undefined ? null : new Decimal(i.gasCoinUsd);
  if (!price || price.lte(0)) {
    return { share: null, note: `no ${i.coin} price (${i.setting}_GAS_COIN_USD unset): the flat network fee is kept` };
  }
  const coin = new Decimal(i.costWei.toString()).div(new Decimal(10).pow(i.nativeDecimals));
  return { share: coin.times(price).div(i.itemCount).toDecimalPlaces(2, Decimal.ROUND_UP), note: null };
}

/** What an item finally pays of its reserved flat fee: its share, never more than the flat fee (a dear batch costs the operator, not the tenant). */
export function chargedNetworkFee(reserved: Decimal.Value, share: Decimal.Value | null): Decimal {
  const flat = new Decimal(reserved);
  return share === null ? flat : Decimal.min(flat, Decimal.max(0, share));
}
