import { z } from 'zod';
import { ADDRESS_RULES, addressFamilyOf } from '@/lib/chain/address-rules';

const Amount = z
  .string()
  .trim()
  .regex(/^\d{1,20}(\.\d{1,18})?$/, 'a positive decimal string, e.g. "500.00"');

/** The owner's settings form; empty strings clear a limit. */
export const ControlsInput = z.strictObject({
  allowlistEnabled: z.boolean(),
  coolingOffHours: z.coerce.number().int().min(0).max(720),
  dailyLimit: z
    .union([z.literal(''), Amount])
    .nullable()
    .transform((v) => (v ? v : null)),
  approvalThreshold: z
    .union([z.literal(''), Amount])
    .nullable()
    .transform((v) => (v ? v : null)),
  totpCode: z.string().optional(),
});
export type ControlsInput = z.output<typeof ControlsInput>;

export const AddAddressInput = z.strictObject({
  address: z.string().trim().min(1).max(128).regex(/^\S+$/, 'no spaces'),
  label: z.string().trim().max(80).optional(),
  totpCode: z.string().optional(),
});

export const StepUpInput = z.strictObject({ totpCode: z.string().optional() });

/** A family whose letter case is presentation (EVM's checksum) compares case-insensitively; anything else exactly. */
export function normalizeAddress(address: string) {
  const a = address.trim();
  const family = addressFamilyOf(a);
  return family && ADDRESS_RULES[family].caseInsensitive ? a.toLowerCase() : a;
}
