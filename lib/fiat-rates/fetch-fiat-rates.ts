import { z } from 'zod';
import { FIAT_CURRENCIES } from '@/lib/invoices/schemas';
import { Decimal } from '@/lib/money';

const Answer = z.object({
  source: z.string().min(1).max(100),
  rates: z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/)),
  /** When the source priced them: required, an answer that cannot say how old it is is not used. */
  at: z.iso.datetime({ offset: true, error: 'the answer has no source timestamp (`at`, ISO 8601)' }),
});

export interface FiatRate {
  currency: string;
  /** USDT per unit of currency, as a decimal string. */
  rate: string;
  source: string;
  fetchedAt: Date;
}

/** One GET of the rate source: the known currencies' positive rates and when the source priced them. Throws on anything else. */
export async function fetchFiatRates(url: string, now: Date): Promise<FiatRate[]> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000), headers: { accept: 'application/json' } });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`fiat rate source answered ${res.status}`);
  }
  const parsed = Answer.safeParse(await res.json());
  if (!parsed.success) throw new Error(`fiat rate source answered badly: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const body = parsed.data;
  const at = new Date(body.at);
  // A source clock ahead of ours must not make a rate look fresher than it is.
  const fetchedAt = at > now ? now : at;
  return FIAT_CURRENCIES.flatMap((currency) => {
    const v = body.rates[currency];
    if (v === undefined || new Decimal(v).lte(0)) return [];
    return [{ currency, rate: new Decimal(v).toFixed(), source: body.source, fetchedAt }];
  });
}
