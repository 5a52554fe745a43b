import { describe, expect, it } from 'vitest';
import { ALL_RAILS, type RailKey } from '@/lib/config/rails';
import { SIM_CURRENCIES } from '@/devtools/exchange-sim/currencies';
import { RAIL_CURRENCIES, railExchangeCode, railOfExchangeCode, resolveRailCurrency } from './rail-currencies';
import type { FfCurrency } from './types';

const ccies: FfCurrency[] = SIM_CURRENCIES.map(({ code, coin, network, name, recv, send, tag }) => ({ code, coin, network, name, recv, send, tag }));
const ccy = (code: string, coin: string, network: string): FfCurrency => ({ code, coin, network, name: code, recv: true, send: true, tag: null });
const label = (r: RailKey) => `${r.chain}:${r.token}`;
const POLYGON_USDT: RailKey = { chain: 'POLYGON', token: 'USDT' };

describe('rail exchange codes', () => {
  it('gives every rail a code, and no two rails the same one', () => {
    const codes = ALL_RAILS.map((r) => railExchangeCode(r));
    expect(codes.every((c) => /^[A-Z0-9]+$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBe(ALL_RAILS.length);
    expect(RAIL_CURRENCIES).toHaveLength(ALL_RAILS.length);
  });

  it('maps codes back to rails', () => {
    expect(railOfExchangeCode('USDTBSC')).toEqual({ chain: 'BSC', token: 'USDT' });
    for (const r of ALL_RAILS) expect(railOfExchangeCode(railExchangeCode(r))).toEqual(r);
    expect(railOfExchangeCode('BTC')).toBeNull();
  });
});

describe('resolveRailCurrency', () => {
  it.each(ALL_RAILS.map((r) => [label(r), r] as const))('finds %s in the simulator list, on its own coin and network', (_, rail) => {
    const found = resolveRailCurrency(ccies, rail);
    expect(found?.code).toBe(railExchangeCode(rail));
    expect(found?.coin).toBe(rail.token);
  });

  it('finds the USDTBSC rail as the reference describes it', () => {
    expect(resolveRailCurrency(ccies, { chain: 'BSC', token: 'USDT' })).toMatchObject({ code: 'USDTBSC', coin: 'USDT', network: 'BSC' });
  });

  it('follows (coin, network) when the exchange names the currency differently', () => {
    for (const network of ['MATIC', 'POLYGON', 'POL', 'polygon']) {
      const list = [ccy('USDTMATIC', 'USDT', network), ccy('USDT', 'USDT', 'ETH')];
      expect(resolveRailCurrency(list, POLYGON_USDT)?.code).toBe('USDTMATIC');
    }
    const arb = [ccy('USDCARBITRUM', 'USDC', 'ARB')];
    expect(resolveRailCurrency(arb, { chain: 'ARBITRUM', token: 'USDC' })?.code).toBe('USDCARBITRUM');
  });

  it('prefers (coin, network) over the static code when both are listed', () => {
    const list = [ccy('USDTPOLY', 'USDT', 'TRX'), ccy('USDTPOLYGON', 'USDT', 'POLYGON')];
    expect(resolveRailCurrency(list, POLYGON_USDT)?.code).toBe('USDTPOLYGON');
  });

  it('falls back to the static code under an unknown network spelling', () => {
    expect(resolveRailCurrency([ccy('USDTPOLY', 'USDT', 'POLYGONPOS')], POLYGON_USDT)?.code).toBe('USDTPOLY');
  });

  it('answers null when the exchange does not offer the rail', () => {
    const without = ccies.filter((c) => !(c.coin === 'USDT' && c.network === 'MATIC'));
    expect(resolveRailCurrency(without, POLYGON_USDT)).toBeNull();
    expect(resolveRailCurrency([], { chain: 'BSC', token: 'USDT' })).toBeNull();
  });

  it('refuses the static code when the list puts it on another coin or another rail network', () => {
    expect(resolveRailCurrency([ccy('USDTPOLY', 'USDC', 'MATIC')], POLYGON_USDT)).toBeNull();
    expect(resolveRailCurrency([ccy('USDTPOLY', 'USDT', 'BSC')], POLYGON_USDT)).toBeNull();
  });
});
