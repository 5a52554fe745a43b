/**
 * The TRON side of the stand-in's state, kept in memory beside anvil: TRX balances (sun), account
 * activation, Stake 2.0 stakes, delegations and the energy/bandwidth each account has used. TRC-20
 * balances live on anvil. Figures follow TRON's resource model (documentation-en,
 * docs/mechanism-algorithm/resource.md, and java-tron's BandwidthProcessor / VMActuator).
 */
export interface TronParams {
  /** Sun burned per energy unit (mainnet and Nile: 100; getEnergyFee). */
  energyFee: number;
  /** Sun burned per bandwidth byte (getTransactionFee: 1000). */
  transactionFee: number;
  /** Free bandwidth per account per 24 h (getFreeNetLimit: 600). */
  freeNetLimit: number;
  /** Burned when a transaction creates an account and the sender lacks staked bandwidth (getCreateAccountFee: 0.1 TRX). */
  createAccountFee: number;
  /** Extra fee of a TRX transfer or AccountCreate that creates an account (getCreateNewAccountFeeInSystemContract: 1 TRX). */
  createNewAccountFeeInSystemContract: number;
  /** Network energy per day shared by stakers (getTotalEnergyLimit: 180,000,000,000). */
  totalEnergyLimit: number;
  /** Network bandwidth per day shared by stakers (43,200,000,000). */
  totalNetLimit: number;
  /** TRX staked for energy by the rest of the network (sets energy per staked TRX; a stand-in assumption). */
  networkEnergyWeight: number;
  /** TRX staked for bandwidth by the rest of the network (a stand-in assumption). */
  networkNetWeight: number;
  /** The token contract's dynamic energy factor (USDT sits at max_factor 3.4 on mainnet). */
  energyFactor: number;
  /** Maximum fee_limit (15,000 TRX). */
  maxFeeLimit: number;
  /** Resources recover linearly over this window (24 h). */
  windowMs: number;
}

export const MAINNET_PARAMS: TronParams = {
  energyFee: 100,
  transactionFee: 1000,
  freeNetLimit: 600,
  createAccountFee: 100_000,
  createNewAccountFeeInSystemContract: 1_000_000,
  totalEnergyLimit: 180_000_000_000,
  totalNetLimit: 43_200_000_000,
  networkEnergyWeight: 18_000_000_000,
  networkNetWeight: 24_000_000_000,
  energyFactor: 3.4,
  maxFeeLimit: 15_000_000_000,
  windowMs: 86_400_000,
};

export type Resource = 'ENERGY' | 'BANDWIDTH';

export interface Account {
  balance: bigint;
  createTime: number;
  frozen: Record<Resource, bigint>;
  delegatedOut: Record<Resource, bigint>;
  acquired: Record<Resource, bigint>;
  energyUsage: number;
  energyTime: number;
  netUsage: number;
  netTime: number;
  freeNetUsage: number;
  freeNetTime: number;
}

const zero = (): Record<Resource, bigint> => ({ ENERGY: 0n, BANDWIDTH: 0n });

export class Ledger {
  readonly accounts = new Map<string, Account>();
  /** `${from}:${to}:${resource}` → sun delegated. */
  readonly delegations = new Map<string, bigint>();

  constructor(readonly params: TronParams) {}

  get(addr: string): Account | undefined {
    return this.accounts.get(addr);
  }

  create(addr: string, now: number): Account {
    const a: Account = {
      balance: 0n,
      createTime: now,
      frozen: zero(),
      delegatedOut: zero(),
      acquired: zero(),
      energyUsage: 0,
      energyTime: now,
      netUsage: 0,
      netTime: now,
      freeNetUsage: 0,
      freeNetTime: now,
    };
    this.accounts.set(addr, a);
    return a;
  }

  /** Usage left after linear recovery over the window. */
  recovered(usage: number, since: number, now: number): number {
    // max(0, …): after a rewind (StandInChain.warpTo) a use stamped later counts as just made, not as growing.
    return Math.max(0, Math.floor(usage * (1 - Math.max(0, now - since) / this.params.windowMs)));
  }

  private weight(r: Resource): number {
    let staked = 0n;
    for (const a of this.accounts.values()) staked += a.frozen[r];
    const base = r === 'ENERGY' ? this.params.networkEnergyWeight : this.params.networkNetWeight;
    return base + Number(staked / 1_000_000n);
  }

  /** Resource units per day that `sun` staked for `r` gives (share of the network limit). */
  unitsFor(r: Resource, sun: bigint): number {
    const limit = r === 'ENERGY' ? this.params.totalEnergyLimit : this.params.totalNetLimit;
    return Math.floor((Number(sun) / 1e6) * (limit / this.weight(r)));
  }

  /** Daily limit from own stake (minus what is delegated away) plus what others delegated in. */
  limit(a: Account, r: Resource): number {
    return this.unitsFor(r, a.frozen[r] - a.delegatedOut[r] + a.acquired[r]);
  }

  energyLeft(a: Account, now: number): number {
    return Math.max(0, this.limit(a, 'ENERGY') - this.recovered(a.energyUsage, a.energyTime, now));
  }

  useEnergy(a: Account, units: number, now: number) {
    a.energyUsage = this.recovered(a.energyUsage, a.energyTime, now) + units;
    a.energyTime = now;
  }

  netLeft(a: Account, now: number): number {
    return Math.max(0, this.limit(a, 'BANDWIDTH') - this.recovered(a.netUsage, a.netTime, now));
  }

  freeNetLeft(a: Account, now: number): number {
    return Math.max(0, this.params.freeNetLimit - this.recovered(a.freeNetUsage, a.freeNetTime, now));
  }

  delegationKey(from: string, to: string, r: Resource): string {
    return `${from}:${to}:${r}`;
  }
}
