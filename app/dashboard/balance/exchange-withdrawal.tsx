import { Card } from '@/components/ui/card';
import { ApiError } from '@/lib/api/errors';
import type { DashboardContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { listExchangeCurrencies } from '@/lib/exchange/list-exchange-currencies';
import { listWithdrawalSources, type WithdrawalSource } from '@/lib/exchange/list-withdrawal-sources';
import { ExchangeWithdrawalForm, type Currency } from './exchange-withdrawal-form';

/** Withdrawal in another currency through the exchange service (lib/exchange), paid from the balance of the rail chosen (BSC USDT by default). */
export async function ExchangeWithdrawal({ ctx }: { ctx: DashboardContext }) {
  let currencies: Currency[] = [];
  let sources: WithdrawalSource[] = [];
  let unavailable: string | null = null;
  try {
    currencies = (await listExchangeCurrencies(ctx.db, ctx.mode)).data.filter((c) => c.recv);
    sources = await listWithdrawalSources(ctx.db, ctx.mode);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    unavailable = err.message;
  }
  return (
    <Card title="Withdraw in another currency" className="mt-4">
      {unavailable ? (
        <p className="text-sm text-slate-600" data-testid="exchange-unavailable">
          Not available in {ctx.mode} mode: {unavailable}
        </p>
      ) : !can(ctx.user.role, 'withdrawals:create') ? (
        <p className="text-sm text-slate-500">Only the account owner can withdraw funds.</p>
      ) : (
        <ExchangeWithdrawalForm currencies={currencies} sources={sources} totpEnabled={ctx.user.totpEnabled} />
      )}
    </Card>
  );
}
