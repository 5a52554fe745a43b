/** Why the exchange put an order into EMERGENCY (FixedFloat `emergency.status`), in plain words. */
const REASON_TEXT: Record<string, string> = {
  LESS: 'less than the agreed amount arrived',
  MORE: 'more than the agreed amount arrived',
  LIMIT: "the amount is outside the exchange's limits",
  EXPIRED: 'the deposit arrived after the order had expired',
};

export function emergencyReasonText(reasons: readonly string[]): string {
  return reasons.map((r) => REASON_TEXT[r] ?? r.toLowerCase()).join('; ');
}

/**
 * What to do about an exchange order in EXPIRED or EMERGENCY (docs/exchange.md,
 * "When an order needs you"). One text for the merchant dashboard and the
 * support console, so both say the same thing.
 */
export function exchangeAdvice(o: { status: string | null; purpose: string; reasons?: readonly string[]; choice?: string | null }): string {
  if (o.status === 'EMERGENCY') {
    if (o.choice === 'EXCHANGE')
      return 'Decided: the exchange continues at the market rate for what arrived. Nothing more to do; the gateway records the outcome.';
    if (o.choice === 'REFUND')
      return 'Decided: a refund of the deposit, minus the network fee, to the address given. Nothing more to do; the gateway records the outcome.';
    const why = o.reasons?.length
      ? `The exchange received the deposit but stopped the order (${emergencyReasonText(o.reasons)}). `
      : 'The exchange received the deposit but stopped the order (late, short, too large or outside limits). ';
    const where =
      o.purpose === 'withdrawal'
        ? 'The USDT has already left your balance (the withdrawal is COMPLETED), so a refund goes to the address you give, not back to the balance.'
        : o.purpose === 'payin'
          ? "A refund goes back to the address you give (usually the customer's), in the coin they paid with."
          : 'A refund goes to the address you give, in the coin that was deposited.';
    return `${why}Decide what happens (the exchange's emergency method): continue the exchange at the market rate for what arrived, or refund the deposit minus the network fee. ${where}`;
  }
  return o.purpose === 'payin'
    ? 'No payment arrived before the order expired, so the invoice expired with it. Nothing to do unless the customer pays late: the order then turns EMERGENCY and needs your decision. The gateway keeps watching it for 24 h.'
    : 'No deposit arrived in time. Nothing to do unless funds were sent late: the order then turns EMERGENCY and needs your decision. The gateway keeps watching it for 24 h.';
}

/** The `emergency` object of a stored order (`lastOrder->'emergency'`): its reasons and the choice made (NONE until someone decides). */
export function readEmergency(value: unknown): { reasons: string[]; choice: string } {
  const e = value && typeof value === 'object' ? (value as { status?: unknown; choice?: unknown }) : {};
  return {
    reasons: Array.isArray(e.status) ? e.status.filter((r): r is string => typeof r === 'string') : [],
    choice: typeof e.choice === 'string' && e.choice ? e.choice : 'NONE',
  };
}
