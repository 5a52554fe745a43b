import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getCurrencies } from './currencies';
import { requireExchange } from './get-exchange';
import { ok } from './view';

/** GET /v1/withdrawals/exchange/currencies: every currency with its send/recv flags. */
export async function listExchangeCurrencies(db: Db, mode: Mode) {
  const list = await getCurrencies(requireExchange(db, mode, null), mode);
  return ok(list.map((c) => ({ code: c.code, coin: c.coin, network: c.network, name: c.name, send: Boolean(c.send), recv: Boolean(c.recv) })));
}
