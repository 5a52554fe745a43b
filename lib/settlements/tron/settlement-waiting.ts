/**
 * A settlement that cannot start yet for a reason that passes by itself (a TRON sweep waiting for stake other
 * sweeps hold): runSettlements puts it back in the queue soon, without using up an attempt.
 */
export class SettlementWaiting extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettlementWaiting';
  }
}
