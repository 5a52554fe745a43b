import { eq } from 'drizzle-orm';
import { invoices, settlements, type Invoice, type Settlement, type SettlementStep } from '@/db/schema';
import type { Db } from '@/lib/db';
import { onFamily, railOf, type Network, type PerFamily, type ReadyNetwork } from '@/lib/chain/network';
import { familyOf, type ChainFamily } from '@/lib/config/rails';
import type { finishSettlement } from './finish-settlement';
import { settleEvmInvoice } from './settle-evm-invoice';
import { settleTronInvoice } from './settle-tron-invoice';
import { reclaimTronEnergy } from './tron/reclaim-energy';
import { settleSolanaInvoice } from './settle-solana-invoice';

/** What a sweep needs of its network: the node, the token, the deposit keys and the three wallets. */
export const SETTLE_FIELDS = ['rpcUrl', 'tokenAddress', 'depositMnemonic', 'gasWalletKey', 'feeWallet', 'hotWalletKey'] as const;
/** A network ready to sweep (of `N`'s families: `SettleNetwork<EvmNetwork>` in the EVM sweep). */
export type SettleNetwork<N extends Network = Network> = ReadyNetwork<(typeof SETTLE_FIELDS)[number], N>;

export interface SettleHooks {
  /** Tests: called once a step of the settlement is confirmed on chain (throw to simulate a crash there). */
  afterStep?: (step: SettlementStep, settlementId: string) => void | Promise<void>;
  /** Tests: called after a step of the settlement is recorded and before it is broadcast. */
  beforeBroadcast?: (step: SettlementStep, settlementId: string) => void | Promise<void>;
  /**
   * Tests: awaited instead of the pause between two looks at a transaction that is not final yet (TRON waits
   * for solidification; the stand-in makes blocks only when asked).
   */
  onWait?: (step: SettlementStep, settlementId: string) => void | Promise<void>;
}

/** Each family's sweep (lazy bodies: settle-evm-invoice.ts imports this module's types and a cycle must not meet an unset binding). */
const SETTLE: PerFamily<SettleNetwork, [db: Db, s: Settlement, invoice: Invoice, hooks: SettleHooks], ReturnType<typeof finishSettlement>> = {
  evm: (net, db, ...a) => settleEvmInvoice(db, net, ...a),
  tron: (net, db, ...a) => settleTronInvoice(db, net, ...a),
  solana: (net, db, ...a) => settleSolanaInvoice(db, net, ...a),
};

/**
 * Sweeps of a network run side by side: TRON's wait a block per preparatory step and ~19 for the transfer, with
 * no shared nonce, each on its own reservation of the energy wallet's stake (issue 44); Solana's wait ~32 slots for
 * finality, each its own transaction with its own blockhash (the gas wallet pays fees without a nonce, and creating
 * the hot wallet's account is idempotent); EVM's one at a time (the gas wallet's nonces and top-ups were built for that).
 */
const CONCURRENCY: Record<ChainFamily, number> = { evm: 1, tron: 64, solana: 16 };
export const settleConcurrency = (net: Pick<SettleNetwork, 'chain'>) => CONCURRENCY[familyOf(net.chain)];

/**
 * What is left to do after settlements finished (the janitor's pass): on TRON the energy delegated to deposit
 * addresses comes back (tron/reclaim-energy.ts); EVM leaves nothing behind. Returns how many it looked at.
 */
const RECLAIM: PerFamily<SettleNetwork, [db: Db, hooks: SettleHooks], Promise<number>> = {
  evm: async () => 0,
  tron: (net, db, hooks) => reclaimTronEnergy(db, net, hooks),
  // A Solana sweep closes the deposit account in its own transaction, rent back to the gas wallet (docs/solana.md §3).
  solana: async () => 0,
};
export const reclaimSweepResources = (db: Db, net: SettleNetwork, hooks: SettleHooks = {}) => onFamily(net, RECLAIM, db, hooks);

/**
 * Runs one settlement to completion, resumable at any point, by the rail's family (SETTLE): EVM
 * tops the deposit address up with gas and sends fee and net (settle-evm-invoice.ts); TRON delegates energy
 * from a staked wallet and has no nonces (settle-tron-invoice.ts, docs/tron.md §4); Solana sends one transaction
 * the gas wallet pays for, closing the deposit token account (settle-solana-invoice.ts). Each way the ledger is
 * credited, the invoice moved and invoice.paid_out written in one transaction (finishSettlement).
 */
export async function settleInvoice(db: Db, network: SettleNetwork, settlementId: string, hooks: SettleHooks = {}) {
  const [s] = await db.select().from(settlements).where(eq(settlements.id, settlementId));
  if (!s) throw new Error(`settlement ${settlementId} not found`);
  if (s.status === 'completed') return s;
  // The settlement's token on this network: its contract and decimals (a disabled token fails, and retries, rather than sweeping another).
  const net = railOf(network, s.token);
  if (!net) throw new Error(`settlement ${s.id}: token ${s.token} is not enabled on ${network.chain}`);
  const [invoice] = await db.select().from(invoices).where(eq(invoices.id, s.invoiceId));
  return onFamily(net, SETTLE, db, s, invoice!, hooks);
}
