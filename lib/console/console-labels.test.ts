import { describe, expect, it } from 'vitest';
import { DEAD_LETTERS_DESCRIPTION } from '@/components/console/dead-letter-text';
import { statusLabel } from '@/components/ui/badge';
import { displayDp, formatIn } from '@/components/ui/money';
import { withFirstDetail } from '@/components/ui/use-form-submit';
import { anyNetworkLabel, networkLabel } from '@/lib/checkout/network-label';

/* Issue 45, labels and figures as the screens show them (the pages are walked in e2e/solvency-statement and layout-360). */
describe('screen labels', () => {
  it('amounts in their unit’s display precision, cut exactly: tokens to the cent, native coins to 6 decimals', () => {
    expect(displayDp('USDT')).toBe(2);
    expect(displayDp('BNB')).toBe(6);
    // A gas wallet's 18-decimal balance beside a round one.
    expect(formatIn('999.999759584998317095', 'BNB')).toBe('999.999759');
    expect(formatIn('1000.000000000000000000', 'BNB')).toBe('1,000.00');
    expect(formatIn('1000', 'USDT')).toBe('1,000.00');
    // Cut, never rounded up: a display never shows more than is there.
    expect(formatIn('4.009', 'USDT')).toBe('4.00');
    expect(formatIn('0.0000009', 'ETH')).toBe('0.00');
    expect(formatIn('-12.3456789', 'BNB')).toBe('-12.345678');
  });

  it('networks by the name the dashboard uses; a chain no longer configured as given', () => {
    expect(networkLabel('BSC')).toBe('BNB Smart Chain (BEP-20)');
    expect(anyNetworkLabel('TRON')).toBe(networkLabel('TRON'));
    expect(anyNetworkLabel('ETHEREUM')).not.toMatch(/ETHEREUM/);
    expect(anyNetworkLabel('chain 97')).toBe('chain 97');
  });

  it('status enum names as words, and a server detail never printed twice', () => {
    expect(statusLabel('PAID_OUT')).toBe('Paid out');
    expect(statusLabel('PENDING')).toBe('Pending');
    const detail = { path: 'amount', message: 'must have at most 2 decimals' };
    const repeated = { code: 'validation_failed', message: 'amount: must have at most 2 decimals', details: [detail] };
    expect(withFirstDetail(repeated)).toBe('amount: must have at most 2 decimals');
    expect(withFirstDetail({ code: 'validation_failed', message: 'Invalid request', details: [detail] })).toBe(
      'Invalid request (must have at most 2 decimals)',
    );
  });

  it('the dead letters page does not say every row used up all 8 attempts (a 410 dead-letters after one, a disabled endpoint after none)', () => {
    expect(DEAD_LETTERS_DESCRIPTION).not.toMatch(/used up all/);
    expect(DEAD_LETTERS_DESCRIPTION).toMatch(/all 8 attempts failed/);
    expect(DEAD_LETTERS_DESCRIPTION).toMatch(/410 Gone/);
    expect(DEAD_LETTERS_DESCRIPTION).toMatch(/no attempt/);
  });
});
