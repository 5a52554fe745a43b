import { z } from 'zod';
import { Timestamp } from '@/lib/api/schemas';
import { ModeSchema } from './mode';

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
