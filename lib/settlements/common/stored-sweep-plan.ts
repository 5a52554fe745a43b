import type { EvmSweepPlan, Settlement, SolanaSweepPlan, SweepPlan, TronSweepPlan } from '@/db/schema';
import type { ChainFamily } from '@/lib/config/rails';

/** Each family's stored sweep plan (settlements.gas_plan); `SweepPlanOf[F]` below fails to compile for a family without one. */
interface SweepPlanOf {
  evm: EvmSweepPlan;
  tron: TronSweepPlan;
  solana: SolanaSweepPlan;
}

/** The family a stored plan was made for: EVM rows carry no `kind` (they predate TRON). */
const familyOfPlan = (plan: SweepPlan): ChainFamily => plan.kind ?? 'evm';

const article = (family: ChainFamily) => (/^[aeiou]/.test(family) ? 'an' : 'a');

/**
 * The plan a settlement already has (a sweep resumed), for the family sweeping it; null when it has none yet.
 * Throws when it was made for another family: a sweep never spends by another chain's plan.
 */
export function storedSweepPlan<F extends ChainFamily>(s: Pick<Settlement, 'id' | 'gasPlan'>, family: F): SweepPlanOf[F] | null {
  if (!s.gasPlan) return null;
  const made = familyOfPlan(s.gasPlan);
  if (made !== family) throw new Error(`settlement ${s.id} has ${article(made)} ${made} sweep plan, not ${article(family)} ${family} one`);
  return s.gasPlan as SweepPlanOf[F];
}
