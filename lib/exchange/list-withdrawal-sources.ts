import { getNetworks, tokensOf } from '@/lib/chain/network';
import { DEFAULT_RAIL, type Asset, type ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getCurrencies } from './currencies';
import { requireExchange } from './get-exchange';
import { resolveRailCurrency } from './rail-currencies';

export interface WithdrawalSource {
  chain: ChainKey;
  token: Asset;
  /** The exchange's code of this rail: the order's fromCcy. */
  code: string;
}

/**
 * The enabled rails an exchange withdrawal can be paid from (the dashboard's "Pay from"): those the
 * exchange lists and accepts (send), BSC USDT first. A rail the exchange does not list is left out
 * rather than guessed.
 */
export async function listWithdrawalSources(db: Db, mode: Mode): Promise<WithdrawalSource[]> {
  const list = await getCurrencies(requireExchange(db, mode, null), mode);
  const out: WithdrawalSource[] = [];
  for (const net of getNetworks(mode)) {
    for (const t of tokensOf(net)) {
      const found = resolveRailCurrency(list, { chain: net.chain, token: t.asset });
      if (found?.send) out.push({ chain: net.chain, token: t.asset, code: found.code });
    }
  }
  const rank = (s: WithdrawalSource) => (s.chain === DEFAULT_RAIL.chain && s.token === DEFAULT_RAIL.token ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}
