import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEV_MNEMONIC, NETWORK_ENV, networkEnvProblems } from './network-env';

const parse = (vars: Record<string, string>) => z.object(NETWORK_ENV).parse(vars);
const KEY = `0x${'11'.repeat(32)}`;
const ADDR = `0x${'22'.repeat(20)}`;
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const LIVE = {
  LIVE_RPC_URL: 'https://bsc-rpc.example',
  LIVE_CHAIN_ID: '56',
  LIVE_TOKEN_ADDRESS: '0x55d398326f99059fF775485246999027B3197955',
  LIVE_DEPOSIT_MNEMONIC: MNEMONIC,
  LIVE_GAS_WALLET_PRIVATE_KEY: KEY,
  LIVE_FEE_WALLET_ADDRESS: ADDR,
  LIVE_HOT_WALLET_PRIVATE_KEY: KEY,
};

describe('network environment', () => {
  it('accepts a complete live network in production', () => {
    expect(networkEnvProblems(parse(LIVE), 'production')).toEqual([]);
  });

  it('refuses the development mnemonic in production, naming the variable but not the value', () => {
    const problems = networkEnvProblems(parse({ ...LIVE, LIVE_DEPOSIT_MNEMONIC: DEV_MNEMONIC }), 'production');
    expect(problems).toEqual(['LIVE_DEPOSIT_MNEMONIC: the well-known development mnemonic is refused in production']);
  });

  it('refuses a missing wallet in production', () => {
    const { LIVE_HOT_WALLET_PRIVATE_KEY: _hot, LIVE_FEE_WALLET_ADDRESS: _fee, ...rest } = LIVE;
    expect(networkEnvProblems(parse(rest), 'production')).toEqual([
      'LIVE_FEE_WALLET_ADDRESS: required in production',
      'LIVE_HOT_WALLET_PRIVATE_KEY: required in production',
    ]);
  });

  it('allows an unconfigured network outside production', () => {
    expect(networkEnvProblems(parse({}), 'development')).toEqual([]);
  });

  it('rejects malformed keys and addresses by name', () => {
    expect(() => parse({ LIVE_GAS_WALLET_PRIVATE_KEY: 'nope' })).toThrow(/LIVE_GAS_WALLET_PRIVATE_KEY/);
    expect(() => parse({ TEST_FEE_WALLET_ADDRESS: '0x12' })).toThrow(/TEST_FEE_WALLET_ADDRESS/);
  });
});
