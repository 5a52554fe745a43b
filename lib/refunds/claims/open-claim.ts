import { eq } from 'drizzle-orm';
import { refundClaims, type RefundClaim } from '@/db/schema';
import type { Db } from '@/lib/db';
import { hashClaimToken, isClaimToken } from './claim-token';
import { claimStatus } from './view';

/** The usable (OPEN, unexpired) claim a secret names, else null: unknown, used, canceled and expired look alike. */
export async function openClaim(db: Db, token: string, opts: { forUpdate?: boolean } = {}): Promise<RefundClaim | null> {
  if (!isClaimToken(token)) return null;
  const q = db
    .select()
    .from(refundClaims)
    .where(eq(refundClaims.tokenHash, hashClaimToken(token)));
  const [c] = opts.forUpdate ? await q.for('update') : await q;
  return c && claimStatus(c) === 'OPEN' ? c : null;
}
