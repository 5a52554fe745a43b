import type { Settlement, TronSweepPlan } from '@/db/schema';
import type { Db } from '@/lib/db';
import { findRecordedTx } from '@/lib/chain/send-recorded-tx';
import { readTronAccount } from '@/lib/chain/tron/resources';
import { buildCreateAccount, buildDelegate, buildStake, buildTrc20Transfer, buildTrxTransfer, buildUndelegate } from '@/lib/chain/tron/transactions';
import type { TronSweepParties } from './plan-tron-sweep';
import { sendTronStep, type TronStepContext, type TronSweepHooks } from './send-tron-step';

export interface TronSweepKeys {
  /** Hex without 0x (TronWeb's form); never logged. */
  depositKey: string;
  energyKey: string;
}

/**
 * The on-chain part of a TRON sweep, as planned (planTronSweep), each step recorded before broadcast and
 * solidified before the next (sendTronStep), so a resumed run repeats none. Delegation: activate the deposit
 * address if it does not exist yet (AccountCreateContract from the energy wallet: 1.1 TRX, the one cost no
 * stake avoids), stake the shortfall, delegate the energy, transfer, take the energy back. Burning: the energy
 * wallet sends the deposit the TRX its transfer burns (which also activates it). Either way the deposit makes
 * ONE USDT transfer, all of it to the hot wallet: its free 600 bytes a day pay for one ~345-byte transfer, not
 * two, and a second transfer would need its own energy (the fee stays in the hot wallet, the ledger is the same).
 */
export async function sweepTron(db: Db, p: TronSweepParties & TronSweepKeys, s: Settlement, plan: TronSweepPlan, hooks: TronSweepHooks) {
  const ctx: TronStepContext = { db, client: p.client, chainId: p.chainId, settlementId: s.id, hooks };
  const fromEnergy = { key: p.energyKey, from: p.energyWallet };
  const delegateSun = BigInt(plan.delegateSun);

  if (plan.feeMode === 'delegate') {
    // Energy cannot be delegated to an account that does not exist, nor can it send.
    if ((await findRecordedTx(db, s.id, 'activate')) || !(await readTronAccount(p.client, p.deposit)).activated) {
      await sendTronStep(ctx, {
        step: 'activate',
        ...fromEnergy,
        to: p.deposit,
        value: '0',
        build: (ref, lifetimeMs) => buildCreateAccount({ from: p.energyWallet, account: p.deposit, ref, lifetimeMs }),
      });
    }
    await hooks.afterStep?.('activate');
    const stakeSun = BigInt(plan.stakeSun);
    if (stakeSun > 0n) {
      await sendTronStep(ctx, {
        step: 'stake',
        ...fromEnergy,
        to: p.energyWallet,
        value: plan.stakeSun,
        build: (ref, lifetimeMs) => buildStake({ from: p.energyWallet, sun: stakeSun, resource: 'ENERGY', ref, lifetimeMs }),
      });
      await hooks.afterStep?.('stake');
    }
    await sendTronStep(ctx, {
      step: 'delegate',
      ...fromEnergy,
      to: p.deposit,
      value: plan.delegateSun,
      build: (ref, lifetimeMs) => buildDelegate({ from: p.energyWallet, to: p.deposit, sun: delegateSun, resource: 'ENERGY', ref, lifetimeMs }),
    });
    await hooks.afterStep?.('delegate');
  }

  // TRX the deposit burns: all its energy in burn mode, else only bandwidth past its free allowance (when allowed).
  const needs = BigInt(plan.depositNeedsSun);
  if (needs > 0n) {
    const recorded = await findRecordedTx(db, s.id, 'gas_topup');
    const balance = recorded ? 0n : (await readTronAccount(p.client, p.deposit)).balanceSun;
    const sun = recorded ? BigInt(recorded.value) : needs - balance;
    if (sun > 0n) {
      await sendTronStep(ctx, {
        step: 'gas_topup',
        ...fromEnergy,
        to: p.deposit,
        value: sun.toString(),
        build: (ref, lifetimeMs) => buildTrxTransfer({ from: p.energyWallet, to: p.deposit, sun, ref, lifetimeMs }),
      });
    }
    await hooks.afterStep?.('gas_topup');
  }

  const units = BigInt(plan.units);
  await sendTronStep(ctx, {
    step: 'custody',
    key: p.depositKey,
    from: p.deposit,
    to: p.hot,
    value: plan.units,
    // fee_limit caps all energy a call may use, delegated included: below energy × price it runs out.
    build: (ref, lifetimeMs) =>
      buildTrc20Transfer({
        token: p.token,
        from: p.deposit,
        to: p.hot,
        amount: units,
        feeLimitSun: Number(BigInt(plan.energy) * BigInt(plan.energySun)),
        ref,
        lifetimeMs,
      }),
  });
  await hooks.afterStep?.('custody');

  if (plan.feeMode === 'delegate') {
    await sendTronStep(ctx, {
      step: 'undelegate',
      ...fromEnergy,
      to: p.deposit,
      value: plan.delegateSun,
      build: (ref, lifetimeMs) => buildUndelegate({ from: p.energyWallet, to: p.deposit, sun: delegateSun, resource: 'ENERGY', ref, lifetimeMs }),
    });
    await hooks.afterStep?.('undelegate');
  }
}
