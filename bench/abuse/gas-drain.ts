/**
 * Gas drain (issue 30 §4): on Ethereum one tenant makes 500 minimum withdrawals and sends 1 USDC of dust to 200
 * of its old deposit addresses. The operator's gas for that tenant (gas used, valued at 10 gwei and the network's
 * reference ETH price) must not exceed what the tenant was charged (withdrawal fees, invoice fees on the dust),
 * dust must not be swept at a loss, and another tenant's Ethereum withdrawals, made meanwhile, must complete.
 * Victim: that tenant's POST /v1/withdrawals, alone and during the attack. In-process, one anvil.
 * GAS_DRAIN_TERMS=before runs the same against the terms before the issue (0.01 minimum, no flat fee, 1.00 sweep
 * minimum) to show the drain.
 */
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';
import { p99 } from './victim';

const WITHDRAWALS = Number(process.env.BENCH_GAS_DRAIN_WITHDRAWALS ?? 500);
const DUSTED = Number(process.env.BENCH_GAS_DRAIN_DUSTED ?? 200);

export default async function run(): Promise<AbuseRow> {
  return withBenchDatabase(async () => {
    const { runGasDrain } = await import('@/lib/testing/gas-drain');
    const terms = process.env.GAS_DRAIN_TERMS === 'before' ? 'before' : 'current';
    const r = await runGasDrain({ withdrawals: WITHDRAWALS, dustedAddresses: DUSTED, terms, victimWithdrawals: 10 });
    const figures = [
      `terms ${r.terms}: min ${r.costs.minWithdrawal}, network fee ${r.costs.networkFee}, sweep min ${r.costs.sweepMinimum} USDC`,
      `${r.attackerWithdrawals} withdrawals, ${r.dusted} dusted addresses (${r.dustSwept} swept)`,
      `attacker's gas ${r.gasUsed} over ${r.attackerTransactions} tx = ${r.gasEth} ETH at ${r.gasPriceGwei} gwei ≈ ${r.gasUsd} USD at ${r.costs.gasCoinUsd}`,
      `charged ${r.charged} USD`,
      `victim withdrawals completed ${r.victimCompleted}/${r.victimWithdrawals}; lane drained in ${r.laneSeconds} s`,
    ];
    console.log(figures.join('\n'));
    const violations: string[] = [];
    if (!r.gasCovered) violations.push(`operator gas ${r.gasUsd} USD exceeds the ${r.charged} USD charged`);
    if (r.dustSwept > 0) violations.push(`${r.dustSwept} dust deposits swept`);
    if (r.victimCompleted !== r.victimWithdrawals) violations.push(`victim withdrawals completed ${r.victimCompleted}/${r.victimWithdrawals}`);
    return {
      scenario: 'gas-drain',
      victimAloneP99Ms: p99(r.victimAlone),
      victimAttackP99Ms: p99(r.victimLatencies),
      victimRequests: r.victimAlone.length + r.victimLatencies.length,
      victimRefused: r.victimRefused,
      note: figures.join('; '),
      violations,
    };
  });
}
