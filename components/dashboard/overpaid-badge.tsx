import { Badge } from '@/components/ui/badge';
import { formatMoney } from '@/components/ui/money';
import { Decimal } from '@/lib/money';

/** Settled or settling after payment: the statuses that no longer say an invoice received more than it asked for. */
const PAID = new Set(['CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT']);

/**
 * "Overpaid by 2.50 USDT" beside a paid invoice's status (issue 35): once paid out an overpaid invoice reads
 * "Paid out" like any other, yet the excess is the payer's to claim back (refundable on its page).
 */
export function OverpaidBadge({ status, expected, received, token }: { status: string; expected: string; received: string; token: string }) {
  const excess = new Decimal(received).minus(expected);
  if (!PAID.has(status) || excess.lte(0)) return null;
  return (
    <span data-testid="overpaid" className="ml-1">
      <Badge tone="amber">
        Overpaid by {formatMoney(excess.toFixed())} {token}
      </Badge>
    </span>
  );
}
