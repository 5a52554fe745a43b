import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/lib/env';
import { productionEnv } from '@/lib/testing/production-env';
import { handlers } from './next-auth';

const cookiesOf = async (url: string) => {
  const res = await handlers.GET(new Request(url) as never);
  return res.headers.getSetCookie();
};

describe('auth cookies', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it('are Secure and __Host-/__Secure- prefixed in production, even behind a proxy that speaks plain http to the app', async () => {
    Object.assign(process.env, productionEnv());
    resetEnvCache();
    const set = await cookiesOf('http://127.0.0.1:3000/api/auth/csrf');
    expect(set.length).toBeGreaterThan(0);
    for (const c of set) {
      expect(c).toMatch(/^__(Host|Secure)-/);
      expect(c).toMatch(/;\s*Secure/i);
      expect(c).toMatch(/;\s*HttpOnly/i);
    }
  });

  it('outside production (plain http on localhost) carry no Secure flag, so the dev server can sign in', async () => {
    const set = await cookiesOf('http://127.0.0.1:3000/api/auth/csrf');
    expect(set.length).toBeGreaterThan(0);
    for (const c of set) expect(c).not.toMatch(/;\s*Secure/i);
  });
});
