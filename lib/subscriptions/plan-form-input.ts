/**
 * The dashboard's plan form as the API's body (CreatePlanBody): its "Price in" is `token` (the amount is in the rail's
 * token: `amount`) or a fiat currency (the amount is a fiat price: `price: { currency, amount }`, converted when each
 * period is billed). Used by the form's own check and by its server action, so both read the form the same way; what
 * is wrong (a currency not offered, a fiat price on a USDC plan) is left to the schema and createPlan.
 */
export function planBodyOfForm(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const { priceIn, amount, ...rest } = input as Record<string, unknown>;
  if (priceIn === undefined || priceIn === 'token') return { ...rest, amount };
  return { ...rest, price: { currency: priceIn, amount } };
}
