import { eq } from 'drizzle-orm';
import { settlements, type Settlement, type TronSweepPlan } from '@/db/schema';
import type { Db } from '@/lib/db';
import { estimateTrc20Transfer, readTronAccount } from '@/lib/chain/tron/resources';
import { ENERGY_WALLET_RESERVE_SUN, readTronFees, readTronStake } from '@/lib/chain/tron/stake';
import { buildCreateAccount, buildDelegate, buildStake, buildTrc20Transfer, buildTrxTransfer } from '@/lib/chain/tron/transactions';
import { SUN, TRANSFER_BYTES, withMargin, type TronSweepParties } from './plan-tron-sweep';
import { runTronStep, sendTronStepAgain, type TronStep, type TronStepContext, type TronSweepHooks } from './send-tron-step';

export interface TronSweepKeys {
  /** Hex without 0x (TronWeb's form); never logged. */
  depositKey: string;
  energyKey: string;
}

/**
 * The on-chain part of a TRON sweep up to the custody transfer, as planned (planTronSweep): a table of steps,
 * each run by runTronStep (recorded before broadcast, looked up on resume), so a resumed run repeats none.
 * Delegation: activate the deposit address if it does not exist yet (AccountCreateContract from the energy
 * wallet: 1.1 TRX, the one cost no stake avoids), stake the shortfall, delegate the energy, transfer. Burning: the
 * energy wallet sends the deposit the TRX its transfer burns (which also activates it). The preparatory steps
 * count once in a block (one block each, issue 44); only the custody transfer waits to be solidified, since it
 * gates crediting. The energy comes back afterwards, off the payment's path (reclaimTronEnergy). The deposit makes
 * ONE USDT transfer, all of it to the hot wallet: its free 600 bytes a day pay for one ~345-byte transfer, not two.
 */
export async function sweepTron(db: Db, p: TronSweepParties & TronSweepKeys, s: Settlement, plan: TronSweepPlan, hooks: TronSweepHooks) {
  const ctx: TronStepContext = { db, client: p.client, chainId: p.chainId, settlementId: s.id, hooks };
  // The plan may grow when a failed transfer is planned again (custodyStep): one object, read at signing time.
  const live = { ...plan };
  const steps = tronPrepSteps(p, live);
  for (const step of steps) await runTronStep(ctx, step);
  await runTronStep(ctx, custodyStep(ctx, p, live, steps));
}

const included = 'included' as const;

/** The plan's preparatory steps in order; activate and gas_topup ask the chain whether they are needed, the others are sent as planned. */
function tronPrepSteps(p: TronSweepParties & TronSweepKeys, plan: TronSweepPlan): TronStep[] {
  const fromEnergy = { key: p.energyKey, from: p.energyWallet, final: included };
  const steps: TronStep[] = [];

  if (plan.feeMode === 'delegate') {
    steps.push({
      step: 'activate',
      ...fromEnergy,
      to: p.deposit,
      // Energy cannot be delegated to an account that does not exist, nor can it send. Judged again before any
      // re-signing: someone else may have activated it meanwhile (issue 42, the sweep wedge).
      value: async () => ((await readTronAccount(p.client, p.deposit)).activated ? null : '0'),
      build: (_, ref, lifetimeMs) => buildCreateAccount({ from: p.energyWallet, account: p.deposit, ref, lifetimeMs }),
    });
    if (BigInt(plan.stakeSun) > 0n) steps.push(stakeStep(p, plan.stakeSun, plan.stakeResource ?? 'ENERGY'));
    steps.push({
      step: 'delegate',
      ...fromEnergy,
      to: p.deposit,
      value: async () => plan.delegateSun,
      // Stake counted free when planned can still be busy when sent (energy in use locks its share; on mainnet an
      // undelegation hands the receiver's used energy back to the owner): wait for it rather than fail.
      waitsOn: /available FreezeEnergyV2 balance/,
      build: (sun, ref, lifetimeMs) => buildDelegate({ from: p.energyWallet, to: p.deposit, sun, resource: 'ENERGY', ref, lifetimeMs }),
    });
  }

  // TRX the deposit burns: all its energy in burn mode, else only bandwidth past its free allowance (when allowed).
  if (BigInt(plan.depositNeedsSun) > 0n) steps.push(topUpStep(p, plan));
  return steps;
}

function topUpStep(p: TronSweepParties & TronSweepKeys, plan: TronSweepPlan): TronStep {
  return {
    step: 'gas_topup',
    key: p.energyKey,
    from: p.energyWallet,
    final: included,
    to: p.deposit,
    // Only what its balance lacks; once recorded, the recorded amount is resumed whatever the balance shows.
    value: async () => {
      const sun = BigInt(plan.depositNeedsSun) - (await readTronAccount(p.client, p.deposit)).balanceSun;
      return sun > 0n ? sun.toString() : null;
    },
    build: (sun, ref, lifetimeMs) => buildTrxTransfer({ from: p.energyWallet, to: p.deposit, sun, ref, lifetimeMs }),
  };
}

function stakeStep(p: TronSweepParties & TronSweepKeys, sun: string, resource: 'ENERGY' | 'BANDWIDTH'): TronStep {
  return {
    step: 'stake',
    key: p.energyKey,
    from: p.energyWallet,
    final: included,
    to: p.energyWallet,
    value: async () => sun,
    build: (value, ref, lifetimeMs) => buildStake({ from: p.energyWallet, sun: value, resource, ref, lifetimeMs }),
  };
}

/** The one step the deposit signs (token units, not sun), final once solidified; a final failure is planned again. */
function custodyStep(ctx: TronStepContext, p: TronSweepParties & TronSweepKeys, plan: TronSweepPlan, prep: TronStep[]): TronStep {
  return {
    step: 'custody',
    key: p.depositKey,
    from: p.deposit,
    to: p.hot,
    final: 'solidified',
    value: async () => plan.units,
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
    replan: async (failed) => {
      await p.beforeResign?.();
      if (!failed) return plan.units;
      await replanTransfer(ctx, p, plan, prep, failed);
      return plan.units;
    },
  };
}

/**
 * A custody transfer final and failed (OUT_OF_ENERGY: the energy needed grew since planning, e.g. the hot wallet
 * was emptied so the transfer sets a new balance slot; REVERT): it moved nothing. Estimated again; still reverting
 * is an error (the settlement retries, then fails, and the janitor reclaims the energy). Otherwise the energy the
 * deposit lacks now is delegated (or, in burn mode, its TRX sent) in one more transaction of the same step (the
 * earlier txID kept in replaced_tx_hashes), and the plan (energy, fee_limit, delegated stake) stored again.
 */
async function replanTransfer(ctx: TronStepContext, p: TronSweepParties & TronSweepKeys, plan: TronSweepPlan, prep: TronStep[], failed: string) {
  const estimate = await estimateTrc20Transfer(p.client, { token: p.token, from: p.deposit, to: p.hot, amount: BigInt(plan.units) });
  if (estimate.reverted)
    throw new Error(`${failed}; planned again, the transfer would still revert (blacklisted address, or less USDT than planned)`);
  const energy = withMargin(estimate.energy);
  const deposit = await readTronAccount(p.client, p.deposit);
  const lacking = energy - Math.max(0, deposit.energyLimit - deposit.energyUsed);
  plan.energy = energy;
  if (lacking > 0 && plan.feeMode === 'delegate') {
    const stake = await readTronStake(p.client, p.energyWallet);
    if (!(stake.energyPerTrx > 0)) throw new Error('the node reports no energy per staked TRX');
    const extra = (BigInt(Math.ceil(lacking / stake.energyPerTrx)) + 1n) * SUN;
    const short = extra - stake.delegatableEnergySun;
    if (short > 0n && stake.balanceSun - ENERGY_WALLET_RESERVE_SUN < short)
      throw new Error(`${failed}; planned again, the energy wallet cannot delegate ${extra} sun more now`);
    plan.delegateSun = (BigInt(plan.delegateSun) + extra).toString();
    await savePlan(ctx, plan);
    if (short > 0n) await sendTronStepAgain(ctx, stakeStep(p, short.toString(), 'ENERGY'), short.toString());
    await sendTronStepAgain(
      ctx,
      prep.find((s) => s.step === 'delegate')!,
      extra.toString(),
    );
  }
  // The failed transfer used the deposit's free bandwidth of the day: the next one pays for its bytes (0.4 TRX),
  // whatever ALLOW_TRX_BURN says, or the sweep would wait a day for a failure it did not choose. Burn mode: its energy too.
  const freeBytes = BigInt(Math.max(0, deposit.freeNetLimit - deposit.freeNetUsed + deposit.netLimit - deposit.netUsed));
  const bandwidthSun = freeBytes >= TRANSFER_BYTES ? 0n : TRANSFER_BYTES * (await readTronFees(p.client)).byteSun;
  const burnSun = plan.feeMode === 'burn' && lacking > 0 ? BigInt(lacking) * BigInt(plan.energySun) : 0n;
  if (bandwidthSun + burnSun > 0n) {
    plan.depositNeedsSun = (bandwidthSun + burnSun + deposit.balanceSun).toString();
    await savePlan(ctx, plan);
    const topUp = topUpStep(p, plan);
    const sun = await topUp.value();
    if (sun) await sendTronStepAgain(ctx, topUp, sun);
  }
  await savePlan(ctx, plan);
}

/** Stored before the transaction it pays for is signed, so a resumed run signs the transfer with the new fee_limit. */
const savePlan = (ctx: TronStepContext, plan: TronSweepPlan) =>
  ctx.db.update(settlements).set({ gasPlan: plan }).where(eq(settlements.id, ctx.settlementId));
