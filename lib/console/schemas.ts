import { z } from 'zod';
import { Decimal } from '@/lib/money';

/** A fee rate as a fraction (0.01 = 1 percent): at least 0, below 0.5, at most 6 decimals (the column's scale). */
const FeeRate = z
  .string()
  .trim()
  .regex(/^\d+(\.\d{1,6})?$/, 'must be a fraction such as 0.01 (1 percent), at most 6 decimals')
  .refine((v) => new Decimal(v).lt('0.5'), 'must be below 0.5 (50 percent)')
  .transform((v) => new Decimal(v).toFixed());

export const FeeRatesBody = z
  .strictObject({ invoiceFeeRate: FeeRate.optional(), withdrawalFeeRate: FeeRate.optional() })
  .refine((b) => b.invoiceFeeRate !== undefined || b.withdrawalFeeRate !== undefined, 'change at least one rate');
export type FeeRatesInput = z.output<typeof FeeRatesBody>;

export const TenantStatusBody = z.strictObject({
  status: z.enum(['active', 'suspended']),
  /** Why: kept in the audit log, shown to the next person who looks. */
  reason: z.string().trim().min(3, 'say why, in a few words').max(500),
});

export const RecoverBody = z.strictObject({
  endpointId: z.string().trim().startsWith('whe_', 'must be a webhook endpoint id (whe_...)'),
  since: z.coerce.date({ error: 'must be a date and time' }),
});

export const ReplayBody = z.strictObject({
  deliveryIds: z.array(z.string().startsWith('whd_', 'must be delivery ids (whd_...)')).min(1, 'select at least one').max(100),
});
