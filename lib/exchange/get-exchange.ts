import { ApiError } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { createExchangeClient, type ExchangeClient } from './client';
import { getExchangeConfig } from './config';

/**
 * The mode's exchange client spending for `tenantId` (its fair share of the
 * weight budget; null: system work), or 503 exchange_unavailable when no credentials are configured.
 */
export function requireExchange(db: Db, mode: Mode, tenantId: string | null): ExchangeClient {
  const config = getExchangeConfig(mode);
  if (!config) throw new ApiError('exchange_unavailable', 'The exchange service is not configured for this mode (no exchange credentials).');
  return createExchangeClient(db, config, { tenantId });
}
