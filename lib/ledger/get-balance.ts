import { and, eq } from 'drizzle-orm';
import { balances } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { Asset } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

/** Available balance of a tenant, mode and asset as a decimal string ("0" when nothing was ever credited). */
export async function getBalance(db: Db, where: { tenantId: string; mode: Mode; currency: Asset }): Promise<string> {
  const [row] = await db
    .select({ available: balances.available })
    .from(balances)
    .where(and(eq(balances.tenantId, where.tenantId), eq(balances.mode, where.mode), eq(balances.currency, where.currency)));
  return new Decimal(row?.available ?? '0').toFixed();
}
