import { afterEach, describe, expect, it } from 'vitest';
import { productionEnv } from '@/lib/testing/production-env';
import { env, resetEnvCache } from './env';

describe('env()', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it('stops with a message naming a malformed variable', () => {
    process.env.DATABASE_URL = 'not a url';
    resetEnvCache();
    expect(() => env()).toThrow(/DATABASE_URL/);
  });

  it('names an unknown APP_ENV', () => {
    process.env.APP_ENV = 'staging';
    resetEnvCache();
    expect(() => env()).toThrow(/APP_ENV/);
  });

  it('defaults APP_ENV from NODE_ENV so a production build is never silently in development', () => {
    Object.assign(process.env, productionEnv());
    delete process.env.APP_ENV;
    (process.env as Record<string, string>).NODE_ENV = 'production';
    resetEnvCache();
    expect(env().APP_ENV).toBe('production');
  });

  it('production refuses a missing wallet and the development mnemonic, naming the variable', () => {
    Object.assign(process.env, productionEnv(), { LIVE_DEPOSIT_MNEMONIC: 'test test test test test test test test test test test junk' });
    delete process.env.LIVE_HOT_WALLET_PRIVATE_KEY;
    resetEnvCache();
    expect(() => env()).toThrow(/LIVE_HOT_WALLET_PRIVATE_KEY/);
    expect(() => env()).toThrow(/LIVE_DEPOSIT_MNEMONIC: the well-known development mnemonic/);
  });
});
