import { describe, expect, it } from 'vitest';
import { runGasDrain } from '@/lib/testing/gas-drain';

/*
 * Issue 30 §4, the gas-drain abuse at a small scale (the bench, `npm run bench -- abuse gas-drain`, runs 500
 * withdrawals and 200 dusted addresses): on Ethereum at 10 gwei, minimum withdrawals and dust on old deposit
 * addresses must not cost the operator more gas than the tenant doing it is charged, and another tenant's
 * withdrawals on the same network still complete. Under the terms before the issue (0.01 minimum, no flat fee,
 * BSC's 1.00 sweep minimum) the same run costs the operator far more than it charges: the scenario catches it.
 */
describe('gas drain on Ethereum', () => {
  it('minimum withdrawals and dusted deposit addresses cost the operator no more gas than the tenant is charged', async () => {
    const r = await runGasDrain({ withdrawals: 30, dustedAddresses: 10, terms: 'current', victimWithdrawals: 3 });
    expect(r.attackerWithdrawals).toBe(30);
    expect(r.dustSwept, 'dust worth less than its sweep is never swept (nor credited)').toBe(0);
    expect(r.gasCovered, `gas ${r.gasUsd} USD against ${r.charged} charged`).toBe(true);
    // Three alone and three during the attack, all paid.
    expect([r.victimCompleted, r.victimWithdrawals]).toEqual([6, 6]);
    expect(r.victimRefused).toBe(0);
  });

  it('the terms before issue 30 let the same run drain the operator (the scenario is not vacuous)', async () => {
    const r = await runGasDrain({ withdrawals: 30, dustedAddresses: 10, terms: 'before', victimWithdrawals: 1 });
    expect(r.dustSwept).toBe(10);
    expect(r.gasCovered, `gas ${r.gasUsd} USD against ${r.charged} charged`).toBe(false);
  });
});
