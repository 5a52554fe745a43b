import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { withdrawals } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { publicClient } from '@/lib/chain/clients';
import { getNetworks } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { makeWithdrawalDue } from '@/lib/withdrawals/make-withdrawal-due';

/**
 * Console: "retry send" for a withdrawal, without ever signing anything here.
 * PENDING: made due now, so the lane job (single runner under its lease)
 * sends it on its next pass through sendPendingWithdrawals. PROCESSING: the
 * exact signed bytes stored before the first broadcast are broadcast again,
 * as the tracker does; the same nonce and signature cannot pay twice.
 */
export async function retryWithdrawalSend(db: Db, actor: AuditActor, withdrawalId: string, now = new Date()) {
  const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!w) throw notFound('Withdrawal');
  const audit = (tx: Db, after: Record<string, unknown>) =>
    recordAudit(
      tx,
      actor,
      {
        action: 'withdrawal.send_retried',
        target: { type: 'withdrawal', id: w.id },
        tenantId: w.tenantId,
        mode: w.mode,
        before: { status: w.status, pendingReason: w.pendingReason, nextAttemptAt: w.nextAttemptAt.toISOString(), txHash: w.txHash },
        after,
      },
      now,
    );

  if (w.status === 'PENDING') {
    return db.transaction(async (tx) => {
      const row = await makeWithdrawalDue(tx, w.id, now);
      if (!row) throw new ApiError('invalid_state', 'The withdrawal was picked up meanwhile; reload to see its state.');
      await audit(tx, { status: row.status, nextAttemptAt: now.toISOString(), via: 'send queue' });
      return { withdrawalId: w.id, status: row.status, action: 'queued' as const };
    });
  }
  if (w.status === 'PROCESSING') {
    if (!w.signedTx) throw new ApiError('invalid_state', 'The withdrawal has no stored transaction yet; the sender is about to broadcast it.');
    // The withdrawal's own network (any enabled rail's), never another chain's node.
    const net = getNetworks(w.mode).find((n) => n.chainId === w.chainId);
    if (!net?.rpcUrl) throw new ApiError('service_unavailable', `No RPC configured for chain ${w.chainId}.`);
    try {
      await broadcastRaw(publicClient(net.rpcUrl), w.signedTx as Hex);
    } catch (err) {
      throw new ApiError(
        'service_unavailable',
        `The node refused the stored transaction: ${String((err as Error).message)
          .split('\n')[0]!
          .slice(0, 200)}`,
      );
    }
    await audit(db, { status: w.status, txHash: w.txHash, via: 'rebroadcast of the stored signed transaction' });
    return { withdrawalId: w.id, status: w.status, action: 'rebroadcast' as const };
  }
  throw new ApiError('invalid_state', `Withdrawal ${w.id} is ${w.status}: there is nothing to retry.`);
}
