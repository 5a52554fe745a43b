import { describe, expect, it } from 'vitest';
import { compileCollector } from './compile-collector';
import artifact from './collector.json' with { type: 'json' };

describe('the subscription collector contract', () => {
  it('is the compiled SubscriptionCollector.sol (run scripts/compile-collector.ts after changing it)', () => {
    const fresh = compileCollector();
    expect({ abi: fresh.abi, bytecode: fresh.bytecode }).toEqual({ abi: artifact.abi, bytecode: artifact.bytecode });
  }, 120_000);
});
