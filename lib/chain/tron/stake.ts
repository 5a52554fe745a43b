import { z } from 'zod';
import { toHex41 } from './address';
import { TronNodeError, type TronNodeClient } from './node-client';
import { isEmptyAnswer } from './parse';
import { readTronAccount, type TronAccountState } from './resources';

export interface TronStake extends TronAccountState {
  /** Sun staked for energy (Stake 2.0, `frozenV2` type ENERGY). */
  stakedEnergySun: bigint;
  /** Sun of that stake delegated to others. */
  delegatedEnergySun: bigint;
  /**
   * Sun of stake that can be delegated now: staked − delegated − the stake whose energy is in use (java-tron
   * refuses to delegate that; `getcandelegatedmaxsize`, computed here because the stand-in does not serve it).
   */
  delegatableEnergySun: bigint;
  /** Sun of others' stake delegated to this account for energy (a deposit address: what the energy wallet lent it). */
  acquiredEnergySun: bigint;
}

const frozen = z.object({
  frozenV2: z.array(z.object({ type: z.string().optional(), amount: z.number().int().nonnegative().optional() })).default([]),
  account_resource: z
    .object({
      delegated_frozenV2_balance_for_energy: z.number().int().nonnegative().default(0),
      acquired_delegated_frozenV2_balance_for_energy: z.number().int().nonnegative().default(0),
    })
    .default({ delegated_frozenV2_balance_for_energy: 0, acquired_delegated_frozenV2_balance_for_energy: 0 }),
});

const SUN = 1_000_000n;
/** TRX the energy wallet keeps unstaked for what it pays in TRX: activations (1.1 TRX each) and its own bandwidth. */
export const ENERGY_WALLET_RESERVE_SUN = 100n * SUN;

/** An energy wallet's stake: what it staked for energy, delegated, and can still delegate. A failed read throws. */
export async function readTronStake(client: TronNodeClient, addr: string): Promise<TronStake> {
  const address = toHex41(addr);
  const [state, raw] = await Promise.all([readTronAccount(client, address), client.wallet('getaccount', { address })]);
  if (!state.activated || isEmptyAnswer(raw))
    return { ...state, stakedEnergySun: 0n, delegatedEnergySun: 0n, delegatableEnergySun: 0n, acquiredEnergySun: 0n };
  const a = frozen.parse(raw);
  const stakedEnergySun = BigInt(a.frozenV2.find((f) => f.type === 'ENERGY')?.amount ?? 0);
  const delegatedEnergySun = BigInt(a.account_resource.delegated_frozenV2_balance_for_energy);
  // Energy in use locks its share of the stake until it recovers (up to 24 h).
  const usedSun = state.energyPerTrx > 0 ? BigInt(Math.ceil(state.energyUsed / state.energyPerTrx)) * SUN : 0n;
  const free = stakedEnergySun - delegatedEnergySun - usedSun;
  return {
    ...state,
    stakedEnergySun,
    delegatedEnergySun,
    delegatableEnergySun: free > 0n ? free : 0n,
    acquiredEnergySun: BigInt(a.account_resource.acquired_delegated_frozenV2_balance_for_energy),
  };
}

const params = z.object({ chainParameter: z.array(z.object({ key: z.string(), value: z.number().optional() })) });

/**
 * Sun burned per energy unit (`getEnergyFee`: 100 since 2024; it was 420, then 210) and per byte of bandwidth
 * past the free allowance (`getTransactionFee`: 1,000), read now: both are chain parameters the committee changes.
 */
export async function readTronFees(client: TronNodeClient): Promise<{ energySun: bigint; byteSun: bigint }> {
  const p = params.parse(await client.wallet('getchainparameters'));
  const get = (key: string) => {
    const v = p.chainParameter.find((c) => c.key === key)?.value;
    if (v === undefined || v <= 0) throw new TronNodeError('/wallet/getchainparameters', `no ${key}`);
    return BigInt(v);
  };
  return { energySun: get('getEnergyFee'), byteSun: get('getTransactionFee') };
}

/**
 * Energy of one typical sweep: a USDT transfer to a holder (the hot wallet) is ~64,300 on mainnet (57,759 on
 * the stand-in), plus the sweep's 10 % margin. Only for the low-energy warning: each sweep estimates its own.
 */
export const TYPICAL_SWEEP_ENERGY = 71_000;

/**
 * Sweeps the energy wallet can pay with delegated energy now: its delegatable stake plus the TRX it could stake
 * beyond `reserveSun`, over the stake one sweep delegates (`ceil(energy / energyPerTrx) + 1` TRX).
 */
export function sweepsAffordable(stake: TronStake, reserveSun: bigint, energyPerSweep = TYPICAL_SWEEP_ENERGY): number {
  if (!stake.activated || !(stake.energyPerTrx > 0)) return 0;
  const perSweep = (BigInt(Math.ceil(energyPerSweep / stake.energyPerTrx)) + 1n) * SUN;
  const liquid = stake.balanceSun > reserveSun ? stake.balanceSun - reserveSun : 0n;
  return Number((stake.delegatableEnergySun + liquid) / perSweep);
}
