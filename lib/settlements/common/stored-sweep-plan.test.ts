import { describe, expect, it } from 'vitest';
import type { EvmSweepPlan, TronSweepPlan } from '@/db/schema';
import { storedSweepPlan } from './stored-sweep-plan';

const evm: EvmSweepPlan = { gasPrice: '1', feeGas: '0', custodyGas: '60000' };
const tron: TronSweepPlan = {
  kind: 'tron',
  feeMode: 'delegate',
  units: '1000000',
  energy: 70000,
  energySun: '100',
  delegateSun: '1000000',
  stakeSun: '0',
  depositNeedsSun: '0',
};

describe('storedSweepPlan: the plan a settlement already has, for the family sweeping it', () => {
  it('none yet: null, whatever the family', () => {
    expect(storedSweepPlan({ id: 'stl_1', gasPlan: null }, 'evm')).toBeNull();
    expect(storedSweepPlan({ id: 'stl_1', gasPlan: null }, 'tron')).toBeNull();
  });

  it("the family's own plan comes back as it is (EVM rows carry no kind)", () => {
    expect(storedSweepPlan({ id: 'stl_1', gasPlan: evm }, 'evm')).toBe(evm);
    expect(storedSweepPlan({ id: 'stl_1', gasPlan: tron }, 'tron')).toBe(tron);
  });

  it("another family's plan is refused: a sweep never spends by a plan made for another chain", () => {
    expect(() => storedSweepPlan({ id: 'stl_1', gasPlan: tron }, 'evm')).toThrow('settlement stl_1 has a tron sweep plan, not an evm one');
    expect(() => storedSweepPlan({ id: 'stl_2', gasPlan: evm }, 'tron')).toThrow('settlement stl_2 has an evm sweep plan, not a tron one');
  });
});
