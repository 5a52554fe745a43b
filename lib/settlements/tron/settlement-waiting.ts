/**
 * A settlement that cannot start yet for a reason that passes by itself (a TRON sweep waiting for stake other
 * sweeps hold): runSettlements puts it back in the queue soon, without using up an attempt. `forStake`: it waits
 * in the fair stake queue (settlements.stake_wait_since, stake-queue.ts), not merely for its next turn.
 */
export class SettlementWaiting extends Error {
  readonly forStake: boolean;
  constructor(message: string, opts: { forStake?: boolean } = {}) {
    super(message);
    this.name = 'SettlementWaiting';
    this.forStake = opts.forStake ?? false;
  }
}
