import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { textArray } from '@/lib/db/text-array';
import { storedAddress } from '@/lib/chain/deposit-keys';
import type { Mode } from '@/lib/mode';

/** A withdrawal debited and not final: its tokens are still in the hot wallet unless one of its transactions is mined. */
export interface InFlightWithdrawal {
  id: string;
  chainId: number;
  token: string;
  netAmount: string;
}

/** A payment held on a deposit address, not yet credited: owed to the merchant or the payer. */
export interface HeldPayment {
  id: string;
  chainId: number;
  token: string;
  amount: string;
  address: string;
  /** Its own sweep's settlement while that runs: the fee step moves feeAmount to the fee wallet before the credit. */
  settlementId: string | null;
  feeAmount: string | null;
}

/**
 * What the database says one mode owes, read in one repeatable-read transaction (one consistent view):
 * the ledger summed per network and token (an entry belongs to the network of the settlement or withdrawal
 * that caused it; others are unattributed), the withdrawals in flight, the held payments, and the deposit
 * addresses whose tokens count as held (credited dust, held payments, sweeps in flight).
 */
export interface OwedSnapshot {
  /** `${chainId}:${token}` → sum of ledger entries; chainId null → unattributed (by token). */
  balances: Map<string, string>;
  unattributed: Map<string, string>;
  withdrawals: InFlightWithdrawal[];
  held: HeldPayment[];
  /** `${chainId}:${token}` → deposit addresses in their stored form (lowercase hex; Solana's Base58 as it is, case-sensitive). */
  depositAddresses: Map<string, Set<string>>;
}

export const lineKey = (chainId: number, token: string) => `${chainId}:${token}`;

export async function readOwedSnapshot(db: Db, mode: Mode): Promise<OwedSnapshot> {
  return db.transaction(
    async (tx) => {
      // Unknown entry kinds are summed like any other: only the reference decides the network.
      const sums = rowsOf<{ chain_id: number | null; currency: string; total: string }>(
        await tx.execute(sql`
          select coalesce(s.chain_id, w.chain_id) as chain_id, e.currency, sum(e.amount)::text as total
            from ledger_entries e
            left join settlements s on e.reference_type = 'settlement' and s.id = e.reference_id
            left join withdrawals w on e.reference_type = 'withdrawal' and w.id = e.reference_id
           where e.mode = ${mode}
           group by 1, 2`),
      );
      const balances = new Map<string, string>();
      const unattributed = new Map<string, string>();
      for (const r of sums) {
        if (r.chain_id === null) unattributed.set(r.currency, r.total);
        else balances.set(lineKey(Number(r.chain_id), r.currency), r.total);
      }

      const withdrawals = rowsOf<{ id: string; chain_id: number; token: string; net_amount: string }>(
        await tx.execute(sql`
          select id, chain_id, token, net_amount::text as net_amount from withdrawals
           where mode = ${mode} and status in ('PENDING', 'PROCESSING')`),
      ).map((r) => ({ id: r.id, chainId: Number(r.chain_id), token: r.token, netAmount: r.net_amount }));

      // Held: never swept by a completed settlement of its own. A payment counted towards its invoice
      // instead (credited, no sweep of its own) is an ordinary payment now and owes nothing until settled.
      const held = rowsOf<{
        id: string;
        chain_id: number;
        token: string;
        amount: string;
        to_address: string;
        settlement_id: string | null;
        fee_amount: string | null;
      }>(
        await tx.execute(sql`
          select m.id, m.chain_id, m.token, m.amount::text as amount, m.to_address, s.id as settlement_id, s.fee_amount::text as fee_amount
            from mismatched_payments m
            left join settlements s on s.id = m.settlement_id
           where m.mode = ${mode}
             and ((m.settlement_id is null and (m.status = 'held' or m.sweep is not null))
                  or (m.settlement_id is not null and s.status <> 'completed'))`),
      ).map((r) => ({
        id: r.id,
        chainId: Number(r.chain_id),
        token: r.token,
        amount: r.amount,
        address: storedAddress(r.to_address),
        settlementId: r.settlement_id,
        feeAmount: r.fee_amount,
      }));

      const addresses = rowsOf<{ chain_id: number; token: string; deposit_address: string }>(
        await tx.execute(sql`
          select distinct s.chain_id, s.token, i.deposit_address
            from settlements s join invoices i on i.id = s.invoice_id
           where s.mode = ${mode}
             and ((s.sweep_deferred and s.carried_by is null) or s.status in ('pending', 'processing'))`),
      );
      const depositAddresses = new Map<string, Set<string>>();
      const add = (chainId: number, token: string, address: string) => {
        const k = lineKey(chainId, token);
        if (!depositAddresses.has(k)) depositAddresses.set(k, new Set());
        depositAddresses.get(k)!.add(storedAddress(address));
      };
      for (const a of addresses) add(Number(a.chain_id), a.token, a.deposit_address);
      for (const h of held) add(h.chainId, h.token, h.address);
      return { balances, unattributed, withdrawals, held, depositAddresses };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The transactions whose mining decides what left a wallet: every signature of each in-flight withdrawal
 * (read again now, after the block was chosen, so one signed since the snapshot is seen too) and the fee
 * step of each held payment's running sweep.
 */
export async function readTxHashes(db: Db, withdrawalIds: string[], settlementIds: string[]) {
  const wd =
    withdrawalIds.length === 0
      ? []
      : rowsOf<{ id: string; tx_hash: string | null; replaced_tx_hashes: string[] | null }>(
          await db.execute(sql`select id, tx_hash, replaced_tx_hashes from withdrawals where id = any(${textArray(withdrawalIds)})`),
        );
  const fees =
    settlementIds.length === 0
      ? []
      : rowsOf<{ settlement_id: string; tx_hash: string }>(
          await db.execute(
            sql`select settlement_id, tx_hash from settlement_txs where step = 'fee' and settlement_id = any(${textArray(settlementIds)})`,
          ),
        );
  return {
    withdrawals: new Map(wd.map((w) => [w.id, [w.tx_hash, ...(w.replaced_tx_hashes ?? [])].filter((h): h is string => Boolean(h))])),
    feeTxs: new Map(fees.map((f) => [f.settlement_id, f.tx_hash])),
  };
}
