import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '@/lib/operations';

/** Response field names that look like a secret. */
const SECRET_NAME = /secret|password|^key$|token|mnemonic|private/i;

/**
 * Secret-looking fields that are not secrets shown once, and why. Anything else
 * must be declared in the operation's `secretFields`, so a new operation that
 * returns a secret cannot leave it in the idempotency table by forgetting.
 */
const NOT_SHOWN_ONCE: Record<string, string> = {
  // The exchange's order query token: the tenant reads it again on every GET of the order or withdrawal.
  token: 'exchange order details (readable again)',
  'data.token': 'exchange order details (readable again)',
  'exchangeOrder.token': 'exchange order (readable again)',
  'data.exchangeOrder.token': 'exchange order (readable again)',
  'metadata.exchangeToken': 'exchange withdrawal metadata (readable again)',
  'data.withdrawal.token': 'the literal USDT',
  'heldPayments.token': 'the asset sent (USDT, USDC)',
  'heldPayments.invoiceToken': "the invoice's asset (USDT, USDC)",
  invoiceToken: "the invoice's asset (USDT, USDC)",
  'settlements.token': 'the asset swept (USDT, USDC)',
  'totals.token': "a payout's asset per total (USDT, USDC)",
  'items.token': "a payout item's asset (USDT, USDC)",
  tokenAddress: "a token contract's public address (automatic collection)",
  'authorize.token': "the token contract's public address, an argument of the collector's authorize",
};
/** Secrets shown once under a name that does not say so, and what they carry. */
const CARRIES_A_SECRET: Record<string, string> = {
  checkoutUrl: "the payer's claim token (issue 30 §1)",
  url: "a merchant refund claim link's secret (createRefundClaim)",
};
/** Timestamps and flags about a secret (previousSecretExpiresAt, revealedAt, hasPreviousSecret...). */
const ABOUT_A_SECRET = /At$|^has|^revealed$/;

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
};

/** Every property path of a JSON schema (refs resolved against its $defs). */
function paths(schema: JsonSchema, defs: Record<string, JsonSchema>, prefix = '', seen = new Set<string>()): string[] {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name) || !defs[name]) return [];
    return paths(defs[name], defs, prefix, new Set([...seen, name]));
  }
  const out: string[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.push(path, ...paths(child, defs, path, seen));
  }
  if (schema.items) out.push(...paths(schema.items, defs, prefix, seen));
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) out.push(...paths(alt, defs, prefix, seen));
  return out;
}

describe('operations that return a secret declare it (secretFields)', () => {
  it.each(OPERATIONS.map((op) => [op.id, op] as const))('%s', (_id, op) => {
    const json = z.toJSONSchema(op.response, { io: 'output', unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const secretLooking = [...new Set(paths(json, json.$defs ?? {}))].filter(
      (p) => SECRET_NAME.test(p.split('.').pop()!) && !ABOUT_A_SECRET.test(p.split('.').pop()!),
    );
    const undeclared = secretLooking.filter((p) => !(op.secretFields ?? []).includes(p) && !(p in NOT_SHOWN_ONCE));
    expect(undeclared).toEqual([]);
    for (const field of (op.secretFields ?? []).filter((f) => !(f in CARRIES_A_SECRET))) expect(secretLooking).toContain(field);
  });

  it('the operations that show a secret once are the ones we know of', () => {
    const declared = OPERATIONS.filter((op) => op.secretFields?.length).map((op) => `${op.id}:${op.secretFields!.join(',')}`);
    expect(declared.sort()).toEqual(
      [
        'createApiKey:key',
        'createInvoice:checkoutUrl',
        'createOrder:checkoutUrl',
        'createRefundClaim:url',
        'createPortalSession:url',
        'createWebhookEndpoint:secret',
        'revealPostbackSecret:secret',
        'rotatePostbackSecret:secret',
        'rotateWebhookSecret:secret',
      ].sort(),
    );
  });
});
