'use client';

import { useRouter } from 'next/navigation';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { retrySettlementAction, retryWithdrawalAction } from './actions';

/** Retry through the jobs' own crash-safe functions; the only way the console touches money in flight. */
export function RetryButton({ kind, id }: { kind: 'settlement' | 'withdrawal'; id: string }) {
  const router = useRouter();
  const toast = useToast();
  const settlement = kind === 'settlement';
  return (
    <ConfirmButton
      label={settlement ? 'Retry settlement' : 'Retry send'}
      title={settlement ? `Retry the settlement of ${id}?` : `Retry sending ${id}?`}
      body={
        settlement
          ? 'The failed settlement goes back to the settle job with fresh attempts; on-chain steps already recorded are resumed, never repeated.'
          : 'A waiting withdrawal is made due now for the sending job; a sent one has its stored signed transaction broadcast again (same nonce, cannot pay twice).'
      }
      confirmLabel="Retry"
      variant="primary"
      onConfirm={async () => {
        const res = settlement ? await retrySettlementAction(id) : await retryWithdrawalAction(id);
        if (!res.ok) return toast(res.error.message, 'error');
        toast(settlement ? `Settlement requeued for ${id}` : `Withdrawal ${id}: ${'action' in res.data ? res.data.action : 'retried'}`);
        router.refresh();
      }}
    />
  );
}
