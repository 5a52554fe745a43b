import type { Settlement, TronSweepPlan } from '@/db/schema';
import type { Db } from '@/lib/db';
import { readTronAccount } from '@/lib/chain/tron/resources';
import { buildCreateAccount, buildDelegate, buildStake, buildTrc20Transfer, buildTrxTransfer, buildUndelegate } from '@/lib/chain/tron/transactions';
import type { TronSweepParties } from './plan-tron-sweep';
import { runTronStep, type TronStep, type TronStepContext, type TronSweepHooks } from './send-tron-step';

export interface TronSweepKeys {
  /** Hex without 0x (TronWeb's form); never logged. */
  depositKey: string;
  energyKey: string;
}

/**
 * The on-chain part of a TRON sweep, as planned (planTronSweep): a table of steps, each run by runTronStep
 * (recorded before broadcast, solidified before the next, looked up on resume), so a resumed run repeats none.
 * Delegation: activate the deposit address if it does not exist yet (AccountCreateContract from the energy
 * wallet: 1.1 TRX, the one cost no stake avoids), stake the shortfall, delegate the energy, transfer, take the
 * energy back. Burning: the energy wallet sends the deposit the TRX its transfer burns (which also activates
 * it). Either way the deposit makes ONE USDT transfer, all of it to the hot wallet: its free 600 bytes a day pay
 * for one ~345-byte transfer, not two, and a second transfer would need its own energy (the fee stays in the hot
 * wallet, the ledger is the same).
 */
export async function sweepTron(db: Db, p: TronSweepParties & TronSweepKeys, s: Settlement, plan: TronSweepPlan, hooks: TronSweepHooks) {
  const ctx: TronStepContext = { db, client: p.client, chainId: p.chainId, settlementId: s.id, hooks };
  for (const step of tronSweepSteps(p, plan)) await runTronStep(ctx, step);
}

/** The plan's steps in order; activate and gas_topup ask the chain whether they are needed, the others are sent as planned. */
function tronSweepSteps(p: TronSweepParties & TronSweepKeys, plan: TronSweepPlan): TronStep[] {
  const fromEnergy = { key: p.energyKey, from: p.energyWallet };
  const planned = (value: string) => async () => value;
  const steps: TronStep[] = [];

  if (plan.feeMode === 'delegate') {
    steps.push({
      step: 'activate',
      ...fromEnergy,
      to: p.deposit,
      // Energy cannot be delegated to an account that does not exist, nor can it send.
      value: async () => ((await readTronAccount(p.client, p.deposit)).activated ? null : '0'),
      build: (_, ref, lifetimeMs) => buildCreateAccount({ from: p.energyWallet, account: p.deposit, ref, lifetimeMs }),
    });
    if (BigInt(plan.stakeSun) > 0n) {
      steps.push({
        step: 'stake',
        ...fromEnergy,
        to: p.energyWallet,
        value: planned(plan.stakeSun),
        build: (sun, ref, lifetimeMs) => buildStake({ from: p.energyWallet, sun, resource: 'ENERGY', ref, lifetimeMs }),
      });
    }
    steps.push({
      step: 'delegate',
      ...fromEnergy,
      to: p.deposit,
      value: planned(plan.delegateSun),
      build: (sun, ref, lifetimeMs) => buildDelegate({ from: p.energyWallet, to: p.deposit, sun, resource: 'ENERGY', ref, lifetimeMs }),
    });
  }

  // TRX the deposit burns: all its energy in burn mode, else only bandwidth past its free allowance (when allowed).
  const needs = BigInt(plan.depositNeedsSun);
  if (needs > 0n) {
    steps.push({
      step: 'gas_topup',
      ...fromEnergy,
      to: p.deposit,
      // Only what its balance lacks; once recorded, the recorded amount is resumed whatever the balance shows.
      value: async () => {
        const sun = needs - (await readTronAccount(p.client, p.deposit)).balanceSun;
        return sun > 0n ? sun.toString() : null;
      },
      build: (sun, ref, lifetimeMs) => buildTrxTransfer({ from: p.energyWallet, to: p.deposit, sun, ref, lifetimeMs }),
    });
  }

  // The one step the deposit signs: token units, not sun.
  steps.push({
    step: 'custody',
    key: p.depositKey,
    from: p.deposit,
    to: p.hot,
    value: planned(plan.units),
    // fee_limit caps all energy a call may use, delegated included: below energy × price it runs out.
    build: (amount, ref, lifetimeMs) =>
      buildTrc20Transfer({
        token: p.token,
        from: p.deposit,
        to: p.hot,
        amount,
        feeLimitSun: Number(BigInt(plan.energy) * BigInt(plan.energySun)),
        ref,
        lifetimeMs,
      }),
  });

  if (plan.feeMode === 'delegate') {
    steps.push({
      step: 'undelegate',
      ...fromEnergy,
      to: p.deposit,
      value: planned(plan.delegateSun),
      build: (sun, ref, lifetimeMs) => buildUndelegate({ from: p.energyWallet, to: p.deposit, sun, resource: 'ENERGY', ref, lifetimeMs }),
    });
  }
  return steps;
}
