import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { Asset } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

/**
 * The available balance of a tenant, mode and asset, its row locked until the transaction ends (0 without a row), so
 * that a debit sized to it in the same transaction (postLedgerEntries) cannot fail on a concurrent one.
 */
export async function lockBalance(tx: Db, where: { tenantId: string; mode: Mode; currency: Asset }): Promise<Decimal> {
  const [row] = rowsOf<{ available: string }>(
    await tx.execute(sql`
      select available::text as available from balances
       where tenant_id = ${where.tenantId} and mode = ${where.mode} and currency = ${where.currency} for update`),
  );
  return new Decimal(row?.available ?? '0');
}
