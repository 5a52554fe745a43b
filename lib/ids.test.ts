import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids';

describe('ids', () => {
  it('are prefixed and sort by creation time', () => {
    const a = newId('invoice', 1_700_000_000_000);
    const b = newId('invoice', 1_700_000_000_001);
    expect(a).toMatch(/^inv_[0-9A-Z]{26}$/);
    expect(a < b).toBe(true);
    expect(isId('invoice', a)).toBe(true);
    expect(isId('withdrawal', a)).toBe(false);
    expect(isId('invoice', 'inv_x')).toBe(false);
  });

  it('do not collide', () => {
    const set = new Set(Array.from({ length: 10_000 }, () => newId('event')));
    expect(set.size).toBe(10_000);
  });
});
