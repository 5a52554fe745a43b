import { CHAIN_SPECS, isChainKey } from '@/lib/config/rails';

/** A `CHAIN:TOKEN` rail as the dashboard's pickers show it: "USDT (TRC-20) on TRON". */
export function railOptionLabel(rail: string): string {
  const [chain, token] = rail.split(':');
  if (!isChainKey(chain)) return rail;
  return `${token} (${CHAIN_SPECS[chain].tokenStandard}) on ${CHAIN_SPECS[chain].name}`;
}
