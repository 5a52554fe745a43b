import { ApiError } from '@/lib/api/errors';
import { getNetworks, tokensOf } from '@/lib/chain/network';
import { railId, type RailId } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

const DEFAULT: RailId = 'BSC:USDT';

/** Every rail the gateway enables for a mode, `CHAIN:TOKEN`, BSC:USDT first. */
export function gatewayRails(mode: Mode): RailId[] {
  const all = getNetworks(mode).flatMap((n) => tokensOf(n).map((t) => railId({ chain: n.chain, token: t.asset })));
  return [DEFAULT, ...all.filter((r) => r !== DEFAULT)];
}

/** The rails a tenant accepts in a mode: its choice among the gateway's (all when it made none); BSC:USDT always. */
export function tenantRails(tenant: { rails: string[] | null }, mode: Mode): RailId[] {
  const chosen = tenant.rails;
  return gatewayRails(mode).filter((r) => r === DEFAULT || chosen === null || chosen.includes(r));
}

/** 400 when the tenant turned this rail off in its settings (the gateway's own check, requireRail, runs first). */
export function assertTenantRail(tenant: { rails: string[] | null }, mode: Mode, rail: { chain: string; token: string }): void {
  const key = `${rail.chain}:${rail.token}`;
  const accepted = tenantRails(tenant, mode);
  if (!accepted.some((r) => r === key)) {
    throw new ApiError(
      'validation_failed',
      `${rail.chain} ${rail.token} is turned off in this account's settings (accepted: ${accepted.join(', ')}).`,
      [{ path: 'chain', message: `${key} is not accepted by this account` }],
    );
  }
}
