import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/lib/env';
import { productionEnv } from '@/lib/testing/production-env';
import { modeCookie } from './mode-cookie';

describe('mode cookie', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it('is Secure and httpOnly in production; outside production (plain http on localhost) not Secure', () => {
    expect(modeCookie('live')[2]).toMatchObject({ httpOnly: true, secure: false, sameSite: 'lax' });
    Object.assign(process.env, productionEnv());
    resetEnvCache();
    const [name, value, options] = modeCookie('live');
    expect([name, value]).toEqual(['gw_mode', 'live']);
    expect(options).toMatchObject({ httpOnly: true, secure: true, sameSite: 'lax', path: '/' });
  });

  it('refuses a value other than live or test', () => {
    expect(() => modeCookie('prod')).toThrow();
  });
});
