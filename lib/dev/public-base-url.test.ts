import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/lib/env';
import { checkoutPath } from '@/lib/invoices/claim-token';
import { claimUrl } from '@/lib/refunds/claims/claim-token';
import { devPublicBaseUrl } from './public-base-url';

const saved = process.env.PUBLIC_BASE_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.PUBLIC_BASE_URL;
  else process.env.PUBLIC_BASE_URL = saved;
  resetEnvCache();
});

describe('links handed out by npm run dev (issue 45)', () => {
  it('checkoutUrl is absolute like a claim link, on the port the stack serves', () => {
    expect(devPublicBaseUrl({})).toBe('http://localhost:3000');
    expect(devPublicBaseUrl({ PORT: '4000' })).toBe('http://localhost:4000');
    expect(devPublicBaseUrl({ PORT: '4000', PUBLIC_BASE_URL: 'https://pay.example' })).toBe('https://pay.example');
    process.env.PUBLIC_BASE_URL = devPublicBaseUrl({ PORT: '4000' });
    resetEnvCache();
    expect(checkoutPath('inv_1', 'tok')).toBe('http://localhost:4000/pay/inv_1?claim=tok');
    expect(claimUrl('x'.repeat(43))).toBe(`http://localhost:4000/refund-claim/${'x'.repeat(43)}`);
  });
});
