import { and, eq } from 'drizzle-orm';
import { withdrawalControls, type WithdrawalControls } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

/** The controls of a tenant and mode; every control off when the owner never set any. */
export async function getWithdrawalControls(db: Db, owner: { tenantId: string; mode: Mode }): Promise<WithdrawalControls> {
  const [row] = await db
    .select()
    .from(withdrawalControls)
    .where(and(eq(withdrawalControls.tenantId, owner.tenantId), eq(withdrawalControls.mode, owner.mode)))
    .limit(1);
  return (
    row ?? {
      tenantId: owner.tenantId,
      mode: owner.mode,
      allowlistEnabled: false,
      coolingOffHours: 24,
      dailyLimit: null,
      approvalThreshold: null,
      updatedAt: new Date(0),
    }
  );
}
