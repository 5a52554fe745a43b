/**
 * A settlement whose payments left the chain (a reorg took them) before its sweep moved them: it is given up
 * without a credit and without retries (runSettlements → abandonSettlement); the janitor takes back any energy
 * it delegated. Only a settlement started early (settlements.swept_early) can meet this.
 */
export class SettlementAbandoned extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettlementAbandoned';
  }
}
