import { validateError } from './bandwidth';
import type { Ledger, Resource } from './ledger';

/**
 * TRON's system contracts the stand-in models, with java-tron's validation messages
 * (actuator/src/main/java/org/tron/core/actuator/*Actuator.java). `check` validates without
 * changing anything (broadcast); `run` validates and applies (packing a block).
 */
export interface SystemCall {
  type: string;
  value: Record<string, unknown>;
  owner: string;
  /** Sun already taken for bandwidth, which the balance checks must leave out. */
  netFee: bigint;
}

const TRX = 1_000_000n;
const hex = (v: unknown) => String(v ?? '').toLowerCase();
const big = (v: unknown) => BigInt(typeof v === 'number' || typeof v === 'string' ? v : 0);
const resourceOf = (v: unknown): Resource => (v === 'ENERGY' || v === 1 ? 'ENERGY' : 'BANDWIDTH');

export function createsAccount(ledger: Ledger, call: Pick<SystemCall, 'type' | 'value'>): boolean {
  if (call.type === 'AccountCreateContract') return true;
  if (call.type === 'TransferContract') return !ledger.get(hex(call.value.to_address));
  return false;
}

/** Applies (or, with `dryRun`, only validates) a system contract; returns the system fee burned. */
export function runSystem(ledger: Ledger, call: SystemCall, now: number, isContract: (a: string) => boolean, dryRun: boolean): bigint {
  const owner = ledger.get(call.owner);
  if (!owner) throw validateError(`account [${call.owner}] does not exist`);
  const balance = owner.balance - call.netFee;
  const p = ledger.params;
  const v = call.value;
  switch (call.type) {
    case 'TransferContract': {
      const to = hex(v.to_address);
      const amount = big(v.amount);
      if (to === call.owner) throw validateError('Cannot transfer TRX to yourself.');
      if (amount <= 0n) throw validateError('Amount must be greater than 0.');
      if (isContract(to)) throw validateError('Cannot transfer TRX to a smartContract.');
      const fee = ledger.get(to) ? 0n : BigInt(p.createNewAccountFeeInSystemContract);
      if (balance < amount + fee) throw validateError('Validate TransferContract error, balance is not sufficient.');
      if (dryRun) return fee;
      const target = ledger.get(to) ?? ledger.create(to, now);
      owner.balance -= amount + fee;
      target.balance += amount;
      return fee;
    }
    case 'AccountCreateContract': {
      const fee = BigInt(p.createNewAccountFeeInSystemContract);
      if (balance < fee) throw validateError('Validate CreateAccountActuator error, insufficient fee.');
      const target = hex(v.account_address);
      if (ledger.get(target)) throw validateError('Account has existed');
      if (dryRun) return fee;
      owner.balance -= fee;
      ledger.create(target, now);
      return fee;
    }
    case 'FreezeBalanceV2Contract': {
      const amount = big(v.frozen_balance);
      if (amount <= 0n) throw validateError('frozenBalance must be positive');
      if (amount < TRX) throw validateError('frozenBalance must be greater than or equal to 1 TRX');
      if (amount > balance) throw validateError('frozenBalance must be less than or equal to accountBalance');
      if (dryRun) return 0n;
      owner.balance -= amount;
      owner.frozen[resourceOf(v.resource)] += amount;
      return 0n;
    }
    case 'DelegateResourceContract': {
      const r = resourceOf(v.resource);
      const amount = big(v.balance);
      const to = hex(v.receiver_address);
      if (v.lock) throw validateError('locked delegation is not modelled by the stand-in');
      if (amount < TRX) throw validateError('delegateBalance must be greater than or equal to 1 TRX');
      // Staked TRX whose resource is in use cannot be delegated (java-tron converts the usage back to TRX).
      const usage =
        r === 'ENERGY' ? ledger.recovered(owner.energyUsage, owner.energyTime, now) : ledger.recovered(owner.netUsage, owner.netTime, now);
      const perTrx = ledger.unitsFor(r, TRX) || 1;
      const usedSun = BigInt(Math.ceil(usage / perTrx)) * TRX;
      if (owner.frozen[r] - owner.delegatedOut[r] - usedSun < amount) {
        throw validateError(
          `delegateBalance must be less than or equal to available ${r === 'ENERGY' ? 'FreezeEnergyV2' : 'FreezeBandwidthV2'} balance`,
        );
      }
      if (to === call.owner) throw validateError('receiverAddress must not be the same as ownerAddress');
      const receiver = ledger.get(to);
      if (!receiver) throw validateError(`Account[${to}] not exists`);
      if (isContract(to)) throw validateError('Do not allow delegate resources to contract addresses');
      if (dryRun) return 0n;
      owner.delegatedOut[r] += amount;
      receiver.acquired[r] += amount;
      const key = ledger.delegationKey(call.owner, to, r);
      ledger.delegations.set(key, (ledger.delegations.get(key) ?? 0n) + amount);
      return 0n;
    }
    case 'UnDelegateResourceContract': {
      const r = resourceOf(v.resource);
      const amount = big(v.balance);
      const to = hex(v.receiver_address);
      if (to === call.owner) throw validateError('receiverAddress must not be the same as ownerAddress');
      const key = ledger.delegationKey(call.owner, to, r);
      const delegated = ledger.delegations.get(key);
      if (!delegated) throw validateError('delegated Resource does not exist');
      if (amount <= 0n) throw validateError('unDelegateBalance must be more than 0 TRX');
      if (amount > delegated) {
        throw validateError(
          `insufficient delegate${r === 'ENERGY' ? 'FrozenBalance(Energy)' : 'dFrozenBalance(BANDWIDTH)'}, request=${amount}, unlock_balance=${delegated}`,
        );
      }
      if (dryRun) return 0n;
      owner.delegatedOut[r] -= amount;
      const receiver = ledger.get(to);
      if (receiver) receiver.acquired[r] -= amount;
      if (amount === delegated) ledger.delegations.delete(key);
      else ledger.delegations.set(key, delegated - amount);
      return 0n;
    }
    default:
      throw validateError(`${call.type} is not modelled by the stand-in`);
  }
}
