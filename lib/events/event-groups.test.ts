import { describe, expect, it } from 'vitest';
import { EVENT_GROUPS } from './event-groups';
import { EVENT_TYPES } from './types';

describe("the endpoint form's event picker (issue 45)", () => {
  it('offers every event type the delivery filter lists, each in exactly one group', () => {
    const offered = EVENT_GROUPS.flatMap((g) => g.types);
    expect([...offered].sort()).toEqual([...EVENT_TYPES].sort());
    expect(new Set(offered).size).toBe(offered.length);
    for (const g of EVENT_GROUPS) expect(g.types.length, g.label).toBeGreaterThan(0);
    expect(EVENT_GROUPS.find((g) => g.label === 'Held payment')?.types).toEqual([
      'held_payment.detected',
      'held_payment.credited',
      'held_payment.refunded',
      'held_payment.refund_failed',
    ]);
  });
});
