import { eq, sql } from 'drizzle-orm';
import { settlements, type CarriedSettlements, type Settlement, type TronSweepPlan } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { TronStoredAddress } from '@/lib/chain/common/address-brand';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { estimateTrc20Transfer, readTronAccount } from '@/lib/chain/tron/resources';
import { storedSweepPlan } from '../common/stored-sweep-plan';
import { bandwidthChunk } from './bandwidth-chunk';
import { underEnergyLock } from './energy-lock';
import { SettlementWaiting } from './settlement-waiting';
import { STAKE_WAIT, sweepsAhead } from './stake-queue';
import { ENERGY_WALLET_RESERVE_SUN, readTronFees, readTronStake } from '@/lib/chain/tron/stake';

export const SUN = 1_000_000n;
/** Bandwidth of the deposit's one USDT transfer: 345 bytes measured (TronWeb-built, one signature), plus a margin. */
export const TRANSFER_BYTES = 400n;
/** Free bandwidth of an account that has not been created yet (`getFreeNetLimit` once it exists). */
const NEW_ACCOUNT_FREE_BYTES = 600n;
/**
 * The estimate plus 10 percent: energy is estimated when planning and used when the transfer runs, and the
 * dynamic energy factor of USDT can move in between (each 6 h maintenance period). Too little delegated energy
 * is OUT_OF_ENERGY: the deposit has no TRX to burn for the rest.
 */
export const withMargin = (energy: number) => Math.ceil(energy * 1.1);

/** A sweep the energy wallet cannot pay for and may not burn TRX for: the settlement's failure reason. */
export class TronSweepRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TronSweepRefused';
  }
}

export interface TronSweepParties {
  client: TronNodeClient;
  chainId: number;
  token: string;
  deposit: TronStoredAddress;
  energyWallet: TronStoredAddress;
  /** The sweep's destination: the hot wallet. */
  hot: TronStoredAddress;
  allowTrxBurn: boolean;
  /** The variable that allows burning, named in the refusal. */
  burnVariable: string;
  /** Throws when the custody transfer must not be signed again (its payment left the chain: early-sweep.ts). */
  beforeResign?: () => Promise<void>;
}

/**
 * The stake to add: the shortfall, raised to STAKE_CHUNK_SWEEPS sweeps' worth, but never more than half of what the
 * wallet may stake: the rest stays liquid for what it pays in TRX (1.1 TRX per activation, its bandwidth) and for
 * later chunks (staking it all at once left the bench's wallet unable to pay activations).
 */
function chunk(shortfall: bigint, delegateSun: bigint, stakeable: bigint): bigint {
  const want = delegateSun * STAKE_CHUNK_SWEEPS;
  const half = stakeable / 2n;
  const sun = ((want < half ? want : half) / SUN) * SUN;
  return sun > shortfall ? sun : shortfall;
}

const trx = (sun: bigint) => `${(Number(sun) / 1e6).toLocaleString('en-US', { maximumFractionDigits: 6 })} TRX`;

/**
 * Sun of stake that other planned sweeps of this energy wallet will delegate and the chain does not show yet
 * (their delegation not confirmed): subtracted from what the chain says can be delegated, so two sweeps never
 * count on the same stake. A delegation mined but not yet marked confirmed is counted twice: too careful, not too bold.
 * Also what other plans are about to stake: for energy (counted as there, so a burst of sweeps planned in the same
 * block makes one stake transaction, not one each) and whether one is staking bandwidth (one chunk at a time).
 */
async function othersPlans(db: Db, chainId: number, settlementId: string) {
  const [row] = rowsOf<{ sun: string | null; staking: string | null; bandwidth: string | null }>(
    await db.execute(sql`
      with open as (
        select s.gas_plan as plan,
               not exists (select 1 from settlement_txs t where t.settlement_id = s.id and t.step = 'stake' and t.status in ('confirmed', 'skipped')) as staking
          from settlements s
         where s.chain_id = ${chainId} and s.id <> ${settlementId} and s.status in ('pending', 'processing')
           and s.gas_plan->>'kind' = 'tron' and s.gas_plan->>'feeMode' = 'delegate'
           and not exists (select 1 from settlement_txs t where t.settlement_id = s.id and t.step = 'delegate' and t.status in ('confirmed', 'skipped')))
      select sum((plan->>'delegateSun')::numeric)::text as sun,
             sum(case when staking and plan->>'stakeResource' is null then coalesce((plan->>'stakeSun')::numeric, 0) else 0 end)::text as staking,
             sum(case when staking and plan->>'stakeResource' = 'BANDWIDTH' then coalesce((plan->>'stakeSun')::numeric, 0) else 0 end)::text as bandwidth
        from open`),
  );
  const staking = BigInt(row?.staking ?? '0');
  return { reserved: BigInt(row?.sun ?? '0') - staking, staking, stakingBandwidth: BigInt(row?.bandwidth ?? '0') };
}

/**
 * When the energy wallet must stake, it stakes for this many sweeps at once (or all it may stake, if less): each
 * stake transaction costs the wallet its bandwidth (~0.3 TRX once its free 600 bytes of the day are used), so
 * staking only each sweep's shortfall cost 28 extra transactions per 100 sweeps (1.706 TRX per sweep, issue 44).
 */
export const STAKE_CHUNK_SWEEPS = 100n;

/**
 * Decides once how a TRON sweep is paid, and stores it (settlements.gas_plan, reused on resume): the energy of
 * the deposit's one USDT transfer is delegated from the energy wallet's stake (`ceil(energy / energyPerTrx) + 1`
 * TRX; the wallet stakes the shortfall first if it has the TRX), or, only when the operator allows it, burned by
 * the deposit from TRX the energy wallet sends it. Planned under a lock on the energy wallet (an advisory lock
 * keyed by chain and address, held to the end of the transaction that stores the plan), so concurrent sweeps
 * cannot promise each other the same stake.
 */
export async function planTronSweep(db: Db, p: TronSweepParties, s: Settlement, units: bigint, carried: CarriedSettlements): Promise<TronSweepPlan> {
  const stored = storedSweepPlan(s, 'tron');
  if (stored) return stored;
  const estimate = await estimateTrc20Transfer(p.client, { token: p.token, from: p.deposit, to: p.hot, amount: units });
  if (estimate.reverted)
    throw new Error(`the deposit's USDT transfer of ${units} units would revert (blacklisted address, or less USDT than planned)`);
  const energy = withMargin(estimate.energy);
  const fees = await readTronFees(p.client);
  const deposit = await readTronAccount(p.client, p.deposit);
  // Bandwidth: one transfer fits the free 600 bytes a day; a second sweep of the address the same day does not.
  const freeBytes = deposit.activated
    ? BigInt(Math.max(0, deposit.freeNetLimit - deposit.freeNetUsed + deposit.netLimit - deposit.netUsed))
    : NEW_ACCOUNT_FREE_BYTES;
  const bandwidthSun = freeBytes >= TRANSFER_BYTES ? 0n : TRANSFER_BYTES * fees.byteSun;

  return underEnergyLock(db, `tron-energy:${p.chainId}:${p.energyWallet}`, async (tx) => {
    const [fresh] = await tx.select({ gasPlan: settlements.gasPlan }).from(settlements).where(eq(settlements.id, s.id)).for('update');
    const planned = fresh && storedSweepPlan({ id: s.id, gasPlan: fresh.gasPlan }, 'tron');
    if (planned) return planned;
    const stake = await readTronStake(p.client, p.energyWallet);
    if (!stake.activated) throw new TronSweepRefused(`the energy wallet ${p.energyWallet} does not exist on chain (fund it with TRX)`);
    if (!(stake.energyPerTrx > 0)) throw new Error('the node reports no energy per staked TRX');
    const delegateSun = (BigInt(Math.ceil(energy / stake.energyPerTrx)) + 1n) * SUN;
    const others = await othersPlans(tx, p.chainId, s.id);
    const available = stake.delegatableEnergySun - others.reserved;
    // Sweeps waiting for stake ahead of this one in the fair queue (stake-queue.ts) get theirs first, ~as much each.
    const ahead = await sweepsAhead(tx, s);
    const free = available - ahead * delegateSun;
    const shortfall = delegateSun - (free > 0n ? free : 0n);
    const stakeable = stake.balanceSun - ENERGY_WALLET_RESERVE_SUN;
    const base = { kind: 'tron' as const, units: units.toString(), energy, energySun: fees.energySun.toString(), carried };
    let plan: TronSweepPlan;
    if (shortfall <= 0n || stakeable >= shortfall) {
      // Bandwidth past the free allowance is burned by the deposit: only when allowed (else wait for tomorrow's).
      if (bandwidthSun > 0n && !p.allowTrxBurn) {
        throw new TronSweepRefused(
          `the deposit address used its free bandwidth today (${freeBytes} bytes left, the transfer needs ${TRANSFER_BYTES}); it recovers within 24 h, or set ${p.burnVariable}=true to pay ${trx(bandwidthSun)} for it`,
        );
      }
      const stakeEnergy = shortfall > 0n ? chunk(shortfall, delegateSun, stakeable) : 0n;
      // The energy wallet's own bandwidth, staked in a chunk when it runs low, by a sweep that stakes nothing else.
      const stakeNet = stakeEnergy > 0n ? 0n : bandwidthChunk(stake, others.stakingBandwidth, stakeable - others.staking);
      plan = {
        ...base,
        feeMode: 'delegate',
        delegateSun: delegateSun.toString(),
        stakeSun: (stakeEnergy > 0n ? stakeEnergy : stakeNet).toString(),
        ...(stakeNet > 0n ? { stakeResource: 'BANDWIDTH' as const } : {}),
        depositNeedsSun: bandwidthSun.toString(),
      };
    } else if (p.allowTrxBurn) {
      plan = {
        ...base,
        feeMode: 'burn',
        delegateSun: '0',
        stakeSun: '0',
        depositNeedsSun: (BigInt(energy) * fees.energySun + bandwidthSun).toString(),
      };
    } else if (stake.stakedEnergySun + (stakeable > 0n ? stakeable : 0n) >= delegateSun) {
      // Short only while other sweeps hold the stake: it comes back as they are undelegated. Wait in the queue
      // rather than fail; what comes back goes to the waiting sweeps in fair order (stake-queue.ts).
      const queue = ahead > 0n ? `; ${ahead} sweep${ahead === 1n ? '' : 's'} of tenants holding less of it, or waiting longer, go first` : '';
      throw new SettlementWaiting(
        `${STAKE_WAIT}: this sweep needs ${trx(delegateSun)}, ${trx(available > 0n ? available : 0n)} is free while other sweeps hold the rest${queue}`,
        { forStake: true },
      );
    } else {
      throw new TronSweepRefused(
        `the energy wallet cannot pay this sweep's ${energy} energy: it needs ${trx(delegateSun)} of delegatable stake, has ${trx(available > 0n ? available : 0n)} and ${trx(stakeable > 0n ? stakeable : 0n)} to stake beyond its ${trx(ENERGY_WALLET_RESERVE_SUN)} reserve; stake more TRX, or set ${p.burnVariable}=true to burn ~${trx(BigInt(energy) * fees.energySun)} per sweep`,
      );
    }
    // Planned: out of the stake queue (it holds a reservation now), in the same statement that stores the plan.
    await tx.update(settlements).set({ gasPlan: plan, stakeWaitSince: null }).where(eq(settlements.id, s.id));
    return plan;
  });
}
