import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DEV_SECRETS_ENCRYPTION_KEY } from '@/lib/config/secrets-key';
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

  it('production refuses an anvil key for a wallet and equal test and live chain ids, naming the variables', () => {
    const anvilKey0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
    Object.assign(process.env, productionEnv(), { LIVE_HOT_WALLET_PRIVATE_KEY: anvilKey0, TEST_CHAIN_ID: '56' });
    resetEnvCache();
    expect(() => env()).toThrow(/LIVE_HOT_WALLET_PRIVATE_KEY: a well-known development key/);
    expect(() => env()).toThrow(/TEST_CHAIN_ID: the test network's chain id \(56\) must differ from LIVE_CHAIN_ID/);
    expect(() => env()).not.toThrow(/ac0974bec39a17e36ba4/);
  });

  it('production refuses to start without SECRETS_ENCRYPTION_KEY, or with the development key, naming it', () => {
    Object.assign(process.env, productionEnv());
    resetEnvCache();
    expect(env().SECRETS_ENCRYPTION_KEY).toBeTruthy();
    delete process.env.SECRETS_ENCRYPTION_KEY;
    resetEnvCache();
    expect(() => env()).toThrow(/SECRETS_ENCRYPTION_KEY: required in production/);
    process.env.SECRETS_ENCRYPTION_KEY = '';
    resetEnvCache();
    expect(() => env()).toThrow(/SECRETS_ENCRYPTION_KEY: required in production/);
    process.env.SECRETS_ENCRYPTION_KEY = DEV_SECRETS_ENCRYPTION_KEY.toString('base64');
    resetEnvCache();
    expect(() => env()).toThrow(/SECRETS_ENCRYPTION_KEY: the development key is refused in production/);
    process.env.SECRETS_ENCRYPTION_KEY = randomBytes(32).toString('hex');
    process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS = randomBytes(32).toString('base64');
    resetEnvCache();
    expect(env().APP_ENV).toBe('production');
  });

  it('names a malformed encryption key (not 32 bytes of base64 or hex) in any environment', () => {
    process.env.SECRETS_ENCRYPTION_KEY = randomBytes(16).toString('base64');
    resetEnvCache();
    expect(() => env()).toThrow(/SECRETS_ENCRYPTION_KEY: must be 32 bytes/);
    process.env.SECRETS_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS = 'not-a-key';
    resetEnvCache();
    expect(() => env()).toThrow(/SECRETS_ENCRYPTION_KEY_PREVIOUS: must be 32 bytes/);
  });

  it('outside production an unset key is fine (the development key is used)', () => {
    delete process.env.SECRETS_ENCRYPTION_KEY;
    process.env.APP_ENV = 'development';
    resetEnvCache();
    expect(env().SECRETS_ENCRYPTION_KEY).toBeUndefined();
  });
});
