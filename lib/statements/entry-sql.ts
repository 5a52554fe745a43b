import { sql, type SQL } from 'drizzle-orm';
import { getNetworks } from '@/lib/chain/network';
import { CHAIN_SPECS, CHAINS, isChainKey, type ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';
import type { BalanceTransactionType } from './schemas';

/**
 * The accountant's type of an entry, in SQL so that filters and pages agree. Unknown kinds fall through
 * to `adjustment`; a withdrawal is `refund` when it gives a payer's money back (an invoice refund or a
 * held payment sent back) and `exchange` when it paid an exchange order.
 */
export const TYPE_SQL = sql`(case
  when e.kind = 'invoice_credit' then 'payment_credit'
  when e.kind like 'invoice_fee%' then 'invoice_fee'
  when e.kind = 'exchange_withdrawal' or (e.kind = 'withdrawal' and w.kind = 'exchange') then 'exchange'
  when e.kind = 'withdrawal' and (w.refund_of_invoice_id is not null
       or exists (select 1 from mismatched_payments m where m.withdrawal_id = w.id)) then 'refund'
  when e.kind = 'withdrawal' then 'withdrawal'
  when e.kind = 'withdrawal_fee' then 'withdrawal_fee'
  when e.kind = 'withdrawal_refund' then 'withdrawal_reversal'
  when e.kind like '%network_fee%' or e.kind like '%gas%' then 'network_fee'
  else 'adjustment' end)`;

/**
 * One entry with what explains it: its settlement or withdrawal, the sweep or transfer hash, the invoice's fiat pricing.
 * A gas charge in parts refers to its pull or set-up as `<id>:<n>` from its second part (lib/subscriptions/uncharged-gas.ts).
 */
export const ENTRY_FROM = sql`
  from ledger_entries e
  left join settlements s on e.reference_type = 'settlement' and s.id = e.reference_id
  left join withdrawals w on e.reference_type = 'withdrawal' and w.id = e.reference_id
  left join collection_pulls cp on e.reference_type = 'collection_pull' and cp.id = split_part(e.reference_id, ':', 1)
  left join collection_setups cs on e.reference_type = 'collection_setup' and cs.id = split_part(e.reference_id, ':', 1)
  left join invoices i on i.id = s.invoice_id`;

export const ENTRY_COLUMNS = sql`
  e.id, e.currency, e.amount::text as amount, e.kind, e.reference_type, e.reference_id, e.balance_after::text as balance_after,
  e.created_at, ${TYPE_SQL} as type, coalesce(s.chain_id, w.chain_id, cp.chain_id, cs.chain_id) as chain_id, w.chain as withdrawal_chain,
  s.amount::text as gross, s.fee_amount::text as fee, coalesce(s.invoice_id, cp.invoice_id) as invoice_id,
  coalesce(w.tx_hash, cp.tx_hash, cs.tx_hash, (select t.tx_hash from settlement_txs t where t.settlement_id = s.id and t.step = 'custody')) as tx_hash,
  i.price_currency, i.rate::text as rate`;

export interface EntryRow {
  id: string;
  currency: string;
  amount: string;
  kind: string;
  reference_type: string;
  reference_id: string;
  balance_after: string;
  created_at: string | Date;
  type: BalanceTransactionType;
  chain_id: number | null;
  withdrawal_chain: string | null;
  gross: string | null;
  fee: string | null;
  invoice_id: string | null;
  tx_hash: string | null;
  price_currency: string | null;
  rate: string | null;
}

/** Every chain id a network may have had in a mode: the configured one and the known test, live and local ids. */
export function chainIdsOf(mode: Mode, chain: ChainKey): number[] {
  const spec = CHAIN_SPECS[chain];
  const configured = getNetworks(mode).find((n) => n.chain === chain)?.chainId;
  return [...new Set([configured, spec.chainId[mode], spec.devChainId[mode]].filter((n): n is number => n !== undefined))];
}

/** The network of an entry: the withdrawal's own, or the one whose chain id its settlement ran on. */
export function networkOf(mode: Mode, row: Pick<EntryRow, 'chain_id' | 'withdrawal_chain'>): ChainKey | null {
  if (isChainKey(row.withdrawal_chain)) return row.withdrawal_chain;
  if (row.chain_id === null) return null;
  const id = Number(row.chain_id);
  return CHAINS.find((c) => chainIdsOf(mode, c).includes(id)) ?? null;
}

/** Filters of a tenant's entries in one mode (asset, network, type, created range). */
export function entryFilters(
  owner: { tenantId: string; mode: Mode },
  f: { asset?: string; network?: ChainKey; type?: BalanceTransactionType; createdFrom?: string; createdTo?: string },
): SQL {
  const conds = [sql`e.tenant_id = ${owner.tenantId}`, sql`e.mode = ${owner.mode}`];
  if (f.asset) conds.push(sql`e.currency = ${f.asset}`);
  if (f.network) {
    const ids = chainIdsOf(owner.mode, f.network);
    conds.push(
      sql`(w.chain = ${f.network} or (w.id is null and coalesce(s.chain_id, cp.chain_id) in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})))`,
    );
  }
  if (f.type) conds.push(sql`${TYPE_SQL} = ${f.type}`);
  if (f.createdFrom) conds.push(sql`e.created_at >= ${new Date(f.createdFrom).toISOString()}::timestamptz`);
  if (f.createdTo) conds.push(sql`e.created_at < ${new Date(f.createdTo).toISOString()}::timestamptz`);
  return sql.join(conds, sql` and `);
}
