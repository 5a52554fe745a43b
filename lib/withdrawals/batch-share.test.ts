import { describe, expect, it } from 'vitest';
import { batchShare, chargedNetworkFee } from './batch-share';

const base = { nativeDecimals: 18, setting: 'TEST_ETHEREUM', coin: 'ETH' };

describe('batchShare: an item of a batch pays its share of the transaction, in the token', () => {
  it('cost / items × the coin price, rounded up to the cent', () => {
    // 200 items × 28,112 gas at 15 gwei = 0.0843360 ETH; at 3,000 USD: 253.008 USD, 1.26504 each → 1.27.
    const costWei = 200n * 28_112n * 15_000_000_000n;
    expect(batchShare({ ...base, costWei, itemCount: 200, gasCoinUsd: '3000' })).toEqual({ share: expect.anything(), note: null });
    expect(batchShare({ ...base, costWei, itemCount: 200, gasCoinUsd: '3000' }).share!.toFixed()).toBe('1.27');
    // An exact cent stays that cent (no extra cent from rounding up).
    expect(batchShare({ ...base, costWei: 10n ** 16n, itemCount: 3, gasCoinUsd: '3' }).share!.toFixed()).toBe('0.01');
    expect(batchShare({ ...base, costWei: 10n ** 16n, itemCount: 1, gasCoinUsd: '3' }).share!.toFixed()).toBe('0.03');
    // A tiny share still pays a cent; nothing mined pays nothing.
    expect(batchShare({ ...base, costWei: 1n, itemCount: 7, gasCoinUsd: '600' }).share!.toFixed()).toBe('0.01');
    expect(batchShare({ ...base, costWei: 0n, itemCount: 7, gasCoinUsd: '600' }).share!.toFixed()).toBe('0');
  });

  it('bigint wei beyond 2^53 are exact', () => {
    const costWei = 123_456_789_012_345_678_901n; // 123.456… ETH
    expect(batchShare({ ...base, costWei, itemCount: 1, gasCoinUsd: '1' }).share!.toFixed()).toBe('123.46');
  });

  it('no price, or no cost: no share, and a note saying why', () => {
    expect(batchShare({ ...base, costWei: 10n, itemCount: 2, gasCoinUsd: undefined })).toEqual({
      share: null,
      note: 'no ETH price (TEST_ETHEREUM_GAS_COIN_USD unset): the flat network fee is kept',
    });
    expect(batchShare({ ...base, costWei: 10n, itemCount: 2, gasCoinUsd: '0' }).note).toMatch(/no ETH price/);
    expect(batchShare({ ...base, costWei: 10n, itemCount: 0, gasCoinUsd: '1' }).note).toMatch(/unknown/);
  });
});

describe('chargedNetworkFee', () => {
  it('the share, capped at the flat fee; the flat fee when there is no share', () => {
    expect(chargedNetworkFee('3.00', '1.27').toFixed(2)).toBe('1.27');
    expect(chargedNetworkFee('3.00', '4.10').toFixed(2)).toBe('3.00');
    expect(chargedNetworkFee('0.00', '0.01').toFixed(2)).toBe('0.00');
    expect(chargedNetworkFee('3.00', null).toFixed(2)).toBe('3.00');
  });
});
