import { afterEach, describe, expect, it } from 'vitest';
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
    delete process.env.APP_ENV;
    (process.env as Record<string, string>).NODE_ENV = 'production';
    resetEnvCache();
    expect(env().APP_ENV).toBe('production');
  });
});
