import { z } from 'zod';
import { Timestamp } from '@/lib/api/schemas';
import { ModeSchema } from '@/lib/mode';

/** The dashboard's rename form (updateTenantName). */
export const TenantNameInput = z.object({ name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters') });

export const TenantSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: ModeSchema.describe('Mode of the calling key.'),
    invoiceFeePercent: z.string().describe('Fraction of each settled invoice kept as fee (0.01 = 1 percent).'),
    feePercent: z.string().describe('Withdrawal fee rate as a fraction, charged on top of the amount.'),
    status: z.enum(['active', 'suspended']),
    createdAt: Timestamp,
  })
  .meta({ id: 'Tenant' });
