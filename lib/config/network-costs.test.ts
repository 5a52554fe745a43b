import { afterEach, describe, expect, it } from 'vitest';
import { getNetwork } from '@/lib/chain/network';
import { env, resetEnvCache } from '@/lib/env';
import { NETWORK_COST_DEFAULTS } from './network-costs';

/*
 * Issue 30 §4: the minimum withdrawal, flat network fee and sweep minimum are per network and mode, each an
 * operator setting with a default for that network's gas. Before, only BSC had a sweep minimum
 * (TEST_/LIVE_SWEEP_MINIMUM_USDT) and every other network inherited BSC's 1.00.
 */
const USDC = '0x00000000000000000000000000000000000000c1';

describe('network costs from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });
  const configure = (vars: Record<string, string>) => {
    Object.assign(process.env, { RAILS: 'ETHEREUM:USDC,POLYGON:USDC', TEST_ETHEREUM_USDC_ADDRESS: USDC, TEST_POLYGON_USDC_ADDRESS: USDC }, vars);
    resetEnvCache();
  };

  it("each network gets its own defaults, not BSC's; BSC keeps the spec's 0.01 and no flat fee", () => {
    configure({});
    const eth = getNetwork('test', 'ETHEREUM');
    expect({ min: eth.minWithdrawal, fee: eth.networkFee, sweep: eth.sweepMinimum }).toEqual({ min: '5.00', fee: '3.00', sweep: '25.00' });
    const polygon = getNetwork('test', 'POLYGON');
    expect({ min: polygon.minWithdrawal, fee: polygon.networkFee, sweep: polygon.sweepMinimum }).toEqual({
      min: NETWORK_COST_DEFAULTS.POLYGON.minWithdrawal,
      fee: NETWORK_COST_DEFAULTS.POLYGON.networkFee,
      sweep: NETWORK_COST_DEFAULTS.POLYGON.sweepMinimum,
    });
    const bsc = getNetwork('test', 'BSC');
    expect({ min: bsc.minWithdrawal, fee: bsc.networkFee, sweep: bsc.sweepMinimum }).toEqual({ min: '0.01', fee: '0.00', sweep: '1.00' });
  });

  it('each is an operator setting per mode and network; the older BSC sweep variable still counts', () => {
    configure({
      TEST_ETHEREUM_MIN_WITHDRAWAL: '10.00',
      TEST_ETHEREUM_NETWORK_FEE: '4.50',
      TEST_ETHEREUM_SWEEP_MINIMUM: '40',
      TEST_ETHEREUM_SWEEP_FEE: '6.50',
      LIVE_ETHEREUM_NETWORK_FEE: '6.00',
      TEST_SWEEP_MINIMUM_USDT: '2.00',
      TEST_BSC_NETWORK_FEE: '0.01',
    });
    expect(getNetwork('test', 'ETHEREUM')).toMatchObject({ minWithdrawal: '10.00', networkFee: '4.50', sweepMinimum: '40', sweepFee: '6.50' });
    expect(getNetwork('live', 'ETHEREUM')).toMatchObject({ minWithdrawal: '5.00', networkFee: '6.00', sweepFee: '4.00' });
    expect(getNetwork('test', 'BSC')).toMatchObject({ sweepMinimum: '2.00', networkFee: '0.01' });
    expect(getNetwork('test', 'POLYGON').sweepMinimum).toBe(NETWORK_COST_DEFAULTS.POLYGON.sweepMinimum);
  });

  it('a malformed value stops start-up naming the variable', () => {
    configure({ TEST_ETHEREUM_NETWORK_FEE: '3.005' });
    expect(() => env()).toThrow(/TEST_ETHEREUM_NETWORK_FEE/);
    configure({ TEST_ETHEREUM_NETWORK_FEE: '3.00', LIVE_POLYGON_MIN_WITHDRAWAL: '0' });
    expect(() => env()).toThrow(/LIVE_POLYGON_MIN_WITHDRAWAL/);
  });
});
