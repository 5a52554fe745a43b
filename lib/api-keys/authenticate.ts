import { sql } from 'drizzle-orm';
import type { WithdrawalControls } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { ApiError } from '@/lib/api/errors';
import { LATEST_API_VERSION, storedApiVersion, type ApiVersion } from '@/lib/api/versions';
import { KEY_FORMAT, hashKeySecret } from './secret';

export interface AuthContext {
  keyId: string;
  tenantId: string;
  mode: Mode;
  scopes: string[];
  /** The tenant row as read by the authentication query (saves a second round trip). */
  tenant: AuthTenant;
  /** The API version of this request (lib/api/versions.ts): the Gateway-Version header's, else the key's, else the tenant's. */
  apiVersion: ApiVersion;
  /** Where apiVersion came from: a webhook endpoint created by a request that named one is pinned to it. */
  apiVersionSource: 'header' | 'key' | 'tenant';
  /**
   * The key's withdrawal controls (every control off when none are set), read by this request's authentication
   * query, never cached: a tightened control applies to the next request (lib/withdrawal-controls).
   */
  withdrawalControls?: WithdrawalControls;
}

export interface AuthTenant {
  id: string;
  name: string;
  invoiceFeeRate: string;
  withdrawalFeeRate: string;
  underpaymentTolerancePercent: string;
  autoRefundOverpayments: boolean;
  autoRefundEnabledAt: Date | null;
  autoRefundDelaySeconds: number;
  autoRefundMaxMultiple: string;
  autoRefundMaxAmount: string;
  refundNetworkFeePayer: 'payer' | 'merchant';
  wrongNetworkPolicy: 'credit' | 'hold';
  /** Rails accepted besides BSC:USDT; null: every enabled one. */
  rails: string[] | null;
  status: 'active' | 'suspended';
  /** The tenant's API version: its requests' and webhooks' unless a key, an endpoint or a request names another. */
  apiVersion: ApiVersion;
  createdAt: Date;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the current one-minute window ends. */
  reset: number;
  /** Whole seconds until reset, at least 1. */
  retryAfter: number;
  exceeded: boolean;
}

interface AuthRow {
  id: string;
  tenant_id: string;
  mode: Mode;
  scopes: string[];
  rate_limit_rpm: number;
  usable: boolean;
  tenant_status: 'active' | 'suspended';
  tenant_name: string;
  invoice_fee_rate: string;
  withdrawal_fee_rate: string;
  underpayment_tolerance_percent: string;
  auto_refund_overpayments: boolean;
  auto_refund_enabled_ms: string | null;
  auto_refund_delay_seconds: number;
  auto_refund_max_multiple: string;
  auto_refund_max_amount: string;
  refund_network_fee_payer: 'payer' | 'merchant';
  wrong_network_policy: 'credit' | 'hold';
  rails: string[] | null;
  key_api_version: string | null;
  tenant_api_version: string;
  tenant_created_ms: string;
  wc_allowlist_enabled: boolean | null;
  wc_cooling_off_hours: number | null;
  wc_daily_limit: string | null;
  wc_approval_threshold: string | null;
  wc_updated_ms: string | null;
  count: number | null;
  window_start_epoch: string | null;
  now_epoch: string;
}

/**
 * Loads the key, counts the request against its one-minute window and
 * refreshes last-used time, all in one statement (one round trip). Nothing is
 * cached, so revocation and expiry apply on the very next request everywhere.
 */
export async function authenticate(db: Db, authorization: string | null): Promise<{ auth: AuthContext; rateLimit: RateLimitState }> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) {
    throw new ApiError('invalid_api_key', 'Missing or malformed Authorization header; expected "Bearer <API key>".');
  }
  const secret = match[1]!;
  if (!KEY_FORMAT.test(secret)) throw new ApiError('invalid_api_key', 'Invalid API key.');

  const result = await db.execute(sql`
    with k as (
      select k.id, k.tenant_id, k.mode, k.scopes, k.rate_limit_rpm, t.status as tenant_status,
             t.name as tenant_name, t.invoice_fee_rate::text as invoice_fee_rate,
             t.withdrawal_fee_rate::text as withdrawal_fee_rate,
             t.underpayment_tolerance_percent::text as underpayment_tolerance_percent,
             t.auto_refund_overpayments,
             (extract(epoch from t.auto_refund_enabled_at) * 1000)::bigint::text as auto_refund_enabled_ms,
             t.auto_refund_delay_seconds,
             t.auto_refund_max_multiple::text as auto_refund_max_multiple,
             t.auto_refund_max_amount::text as auto_refund_max_amount,
             t.refund_network_fee_payer,
             t.wrong_network_policy,
             t.rails,
             k.api_version as key_api_version,
             t.api_version as tenant_api_version,
             (extract(epoch from t.created_at) * 1000)::bigint::text as tenant_created_ms,
             (k.status = 'ACTIVE' and (k.expires_at is null or k.expires_at > now())) as usable,
             wc.allowlist_enabled as wc_allowlist_enabled, wc.cooling_off_hours as wc_cooling_off_hours,
             wc.daily_limit::text as wc_daily_limit, wc.approval_threshold::text as wc_approval_threshold,
             (extract(epoch from wc.updated_at) * 1000)::bigint::text as wc_updated_ms
        from api_keys k join tenants t on t.id = k.tenant_id
        left join withdrawal_controls wc on wc.tenant_id = k.tenant_id and wc.mode = k.mode
       where k.key_hash = ${hashKeySecret(secret)}
    ), rl as (
      insert into rate_limit_windows (key_id, window_start, count)
      select id, date_trunc('minute', now()), 1 from k where usable and tenant_status = 'active'
      on conflict (key_id, window_start) do update set count = rate_limit_windows.count + 1
      returning count, window_start
    ), touch as (
      update api_keys set last_used_at = now()
       where id in (select id from k where usable)
         and (last_used_at is null or last_used_at < now() - interval '60 seconds')
      returning id
    )
    select k.*, rl.count, extract(epoch from rl.window_start)::text as window_start_epoch,
           extract(epoch from now())::text as now_epoch
      from k left join rl on true`);
  const row = rowsOf<AuthRow>(result)[0];
  if (!row || !row.usable) throw new ApiError('invalid_api_key', 'Invalid, revoked or expired API key.');
  if (row.tenant_status !== 'active') throw new ApiError('tenant_suspended', 'This account is suspended.');

  const count = Number(row.count);
  const reset = Math.round(Number(row.window_start_epoch)) + 60;
  const retryAfter = Math.max(1, Math.ceil(reset - Number(row.now_epoch)));
  const tenantApiVersion = storedApiVersion(row.tenant_api_version) ?? LATEST_API_VERSION;
  const keyApiVersion = storedApiVersion(row.key_api_version);
  return {
    auth: {
      keyId: row.id,
      tenantId: row.tenant_id,
      mode: row.mode,
      scopes: row.scopes,
      tenant: {
        id: row.tenant_id,
        name: row.tenant_name,
        invoiceFeeRate: row.invoice_fee_rate,
        withdrawalFeeRate: row.withdrawal_fee_rate,
        underpaymentTolerancePercent: row.underpayment_tolerance_percent,
        autoRefundOverpayments: row.auto_refund_overpayments,
        autoRefundEnabledAt: row.auto_refund_enabled_ms === null ? null : new Date(Number(row.auto_refund_enabled_ms)),
        autoRefundDelaySeconds: Number(row.auto_refund_delay_seconds),
        autoRefundMaxMultiple: row.auto_refund_max_multiple,
        autoRefundMaxAmount: row.auto_refund_max_amount,
        refundNetworkFeePayer: row.refund_network_fee_payer,
        wrongNetworkPolicy: row.wrong_network_policy,
        rails: row.rails,
        status: row.tenant_status,
        apiVersion: tenantApiVersion,
        createdAt: new Date(Number(row.tenant_created_ms)),
      },
      apiVersion: keyApiVersion ?? tenantApiVersion,
      apiVersionSource: keyApiVersion ? 'key' : 'tenant',
      // The defaults of getWithdrawalControls when the owner never set any.
      withdrawalControls: {
        tenantId: row.tenant_id,
        mode: row.mode,
        allowlistEnabled: row.wc_allowlist_enabled ?? false,
        coolingOffHours: Number(row.wc_cooling_off_hours ?? 24),
        dailyLimit: row.wc_daily_limit,
        approvalThreshold: row.wc_approval_threshold,
        updatedAt: new Date(Number(row.wc_updated_ms ?? 0)),
      },
    },
    rateLimit: {
      limit: row.rate_limit_rpm,
      remaining: Math.max(0, row.rate_limit_rpm - count),
      reset,
      retryAfter,
      exceeded: count > row.rate_limit_rpm,
    },
  };
}
