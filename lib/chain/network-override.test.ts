import { describe, expect, it } from 'vitest';
import { findNetwork, setNetworkOverride, type Network } from './network';

describe('setNetworkOverride', () => {
  it("refuses a network of another family under a chain's key, and leaves the chain as it was", () => {
    // Only the two fields the guard reads: the guard must refuse before anything else is looked at.
    const evm = { family: 'evm', chain: 'BSC' } as unknown as Network;
    const before = findNetwork('test', 'TRON');
    expect(() => setNetworkOverride('test', evm, 'TRON')).toThrow(/evm network for BSC cannot stand for TRON/);
    expect(findNetwork('test', 'TRON')).toBe(before);
  });
});
