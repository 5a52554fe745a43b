import { describe, expect, it } from 'vitest';
import { compileStablecoins } from './compile-stablecoins';
import artifact from './test-stablecoins.json' with { type: 'json' };

describe('the EVM stablecoin stand-ins', () => {
  it('are the compiled TestStablecoins.sol (run scripts/compile-test-stablecoins.ts after changing it)', () => {
    const fresh = compileStablecoins();
    expect(fresh.contracts).toEqual(artifact.contracts);
  }, 120_000);
});
