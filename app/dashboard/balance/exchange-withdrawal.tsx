import { Card } from '@/components/ui/card';

/**
 * Exchange withdrawals (another currency through the exchange service) wait
 * for the exchange capability (issue 6) in lib/exchange, built in parallel.
 */
export function ExchangeWithdrawal() {
  return (
    <Card title="Withdraw in another currency" className="mt-4">
      <div className="flex items-start gap-3" data-testid="exchange-unavailable">
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold uppercase text-slate-600">Not yet available</span>
        <p className="text-sm text-slate-600">
          Withdrawals converted through the exchange service (searchable currency picker, live quote with minimum and maximum, order result) will appear here once the exchange
          capability ships.
        </p>
      </div>
    </Card>
  );
}
