import { z } from 'zod';

/** Shared by the sign-in/up forms (client) and the server actions. */
export const Email = z
  .email('must be a valid email address')
  .max(254)
  .transform((e) => e.trim().toLowerCase());
export const Password = z.string().min(10, 'must be at least 10 characters').max(200, 'must be at most 200 characters');

export const SignInInput = z.object({
  email: Email,
  password: z.string().min(1, 'is required').max(200),
  /** A 6-digit TOTP code or a recovery code, when the account has two-factor sign-in. */
  code: z.string().trim().max(40).optional(),
});

export const SignUpInput = z.object({
  businessName: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  email: Email,
  password: Password,
});

export const AcceptInvitationInput = z.object({ token: z.string().min(10).max(200), password: Password });

export const InviteMemberInput = z.object({ email: Email });

export const TotpCodeInput = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be the 6-digit code from your app'),
});
