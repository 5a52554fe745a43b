import type { ChainKey } from '@/lib/config/rails';
import { findNetwork } from '@/lib/chain/network';
import type { Mode } from '@/lib/mode';

export { CHAIN_GONE_TEXT } from './chain-gone-text';

/**
 * The invoice was made on a chain this gateway no longer runs (issue 45): `npm run dev` starts new local chains with
 * new ids on every start, and the jobs leave an earlier run's invoices alone (not watched, not expired). The
 * screens say so ("from an earlier run of the local chains: not watched") and offer nothing that cannot work.
 */
export function chainGone(invoice: { mode: Mode; chain: ChainKey; chainId: number }) {
  const net = findNetwork(invoice.mode, invoice.chain);
  return !net || net.chainId !== invoice.chainId;
}
