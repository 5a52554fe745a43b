import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tronDepositKey } from '@/lib/chain/tron/deposit-key';
import { toEvm } from '@/lib/chain/tron/address';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { DEV_ACCOUNT_ADDRESSES, DEV_MNEMONIC, DEV_TRON_ACCOUNT_ADDRESSES, NETWORK_ENV, RAIL_ENV, networkEnvProblems } from '@/lib/config/network-env';

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

  // Anvil's and hardhat's well-known keys (printed by every local node): account 0, 9 and 19 of the dev mnemonic.
  const devKey = (i: number) => {
    const hd = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i }).getHdKey();
    return `0x${Buffer.from(hd.privateKey!).toString('hex')}`;
  };

  it('the well-known development accounts are those of the development mnemonic', () => {
    expect(DEV_ACCOUNT_ADDRESSES).toEqual(
      Array.from({ length: 20 }, (_, i) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i }).address.toLowerCase()),
    );
    expect(devKey(0)).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'); // anvil's account 0, as it prints it
  });

  const TEST_NET = {
    TEST_RPC_URL: 'https://bsc-testnet.example',
    TEST_CHAIN_ID: '97',
    TEST_TOKEN_ADDRESS: '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd',
    TEST_DEPOSIT_MNEMONIC: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    TEST_GAS_WALLET_PRIVATE_KEY: `0x${'33'.repeat(32)}`,
    TEST_FEE_WALLET_ADDRESS: `0x${'44'.repeat(20)}`,
    TEST_HOT_WALLET_PRIVATE_KEY: `0x${'55'.repeat(32)}`,
  };

  it('accepts a complete test network beside the live one', () => {
    expect(networkEnvProblems(parse({ ...LIVE, ...TEST_NET }), 'production')).toEqual([]);
  });

  it.each([
    ['LIVE_GAS_WALLET_PRIVATE_KEY', 0],
    ['LIVE_HOT_WALLET_PRIVATE_KEY', 9],
    ['TEST_GAS_WALLET_PRIVATE_KEY', 19],
    ['TEST_HOT_WALLET_PRIVATE_KEY', 1],
    ['TEST_FAUCET_PRIVATE_KEY', 2],
  ] as const)('refuses a well-known development key for %s (account %i) in production, naming it, never the key', (name, i) => {
    const problems = networkEnvProblems(parse({ ...LIVE, ...TEST_NET, [name]: devKey(i) }), 'production');
    expect(problems).toEqual([`${name}: a well-known development key (anvil/hardhat) is refused in production`]);
    expect(problems.join()).not.toContain(devKey(i).slice(2, 12));
    // Development and tests run on anvil with exactly these keys.
    expect(networkEnvProblems(parse({ ...LIVE, ...TEST_NET, [name]: devKey(i) }), 'development')).toEqual([]);
  });

  it.each(['LIVE_FEE_WALLET_ADDRESS', 'TEST_FEE_WALLET_ADDRESS'] as const)('refuses a development account as %s in production (any case)', (name) => {
    const problems = networkEnvProblems(
      parse({ ...LIVE, ...TEST_NET, [name]: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 3 }).address }),
      'production',
    );
    expect(problems).toEqual([`${name}: a well-known development account (anvil/hardhat) is refused in production`]);
  });

  it("refuses the Solana stand-in's keys and fee wallet in production, and wants a fee wallet for an enabled SOLANA rail", () => {
    const parseAll = (vars: Record<string, string>) => z.object({ ...NETWORK_ENV, ...RAIL_ENV }).parse(vars);
    const SOL = {
      ...LIVE,
      RAILS: 'SOLANA:USDC',
      LIVE_SOLANA_RPC_URL: 'https://solana-rpc.example',
      LIVE_SOLANA_GAS_WALLET_PRIVATE_KEY: `0x${'51'.repeat(32)}`,
      LIVE_SOLANA_HOT_WALLET_PRIVATE_KEY: `0x${'52'.repeat(32)}`,
      LIVE_SOLANA_FEE_WALLET_ADDRESS: `0x${'53'.repeat(32)}`,
    };
    expect(networkEnvProblems(parseAll(SOL), 'production')).toEqual([]);
    expect(
      networkEnvProblems(
        parseAll({ ...SOL, LIVE_SOLANA_HOT_WALLET_PRIVATE_KEY: SOLANA_DEV.hotWalletKey.toUpperCase().replace('0X', '0x') }),
        'production',
      ),
    ).toEqual(["LIVE_SOLANA_HOT_WALLET_PRIVATE_KEY: the Solana stand-in's development key is refused in production"]);
    // The development default, written as a person copies it (Base58).
    expect(
      networkEnvProblems(parseAll({ ...SOL, LIVE_SOLANA_FEE_WALLET_ADDRESS: 'EoUMaXvq9gFZysztJTpY1cGSY6vxyfwx3tvxSyR4hYCc' }), 'production'),
    ).toEqual(["LIVE_SOLANA_FEE_WALLET_ADDRESS: the Solana stand-in's development fee wallet is refused in production"]);
    const { LIVE_SOLANA_FEE_WALLET_ADDRESS: _fee, ...noFee } = SOL;
    expect(networkEnvProblems(parseAll(noFee), 'production')).toEqual([
      'LIVE_SOLANA_FEE_WALLET_ADDRESS: required in production for the enabled SOLANA rails (their invoices are settled only with a fee wallet)',
    ]);
    // Development settles to the stand-in's fee wallet without configuration.
    expect(networkEnvProblems(parseAll({ ...noFee, LIVE_SOLANA_GAS_WALLET_PRIVATE_KEY: SOLANA_DEV.gasWalletKey }), 'development')).toEqual([]);
  });

  it('refuses the development mnemonic for the test network too, whatever its case and spacing', () => {
    const problems = networkEnvProblems(
      parse({ ...LIVE, ...TEST_NET, TEST_DEPOSIT_MNEMONIC: `  ${DEV_MNEMONIC.toUpperCase().replaceAll(' ', '   ')} ` }),
      'production',
    );
    expect(problems).toEqual(['TEST_DEPOSIT_MNEMONIC: the well-known development mnemonic is refused in production']);
  });

  it('refuses equal test and live chain ids in production, also through the test default (97)', () => {
    expect(networkEnvProblems(parse({ ...LIVE, ...TEST_NET, TEST_CHAIN_ID: '56' }), 'production')).toEqual([
      "TEST_CHAIN_ID: the test network's chain id (56) must differ from LIVE_CHAIN_ID in production",
    ]);
    expect(networkEnvProblems(parse({ ...LIVE, LIVE_CHAIN_ID: '97' }), 'production')).toEqual([
      "TEST_CHAIN_ID: the test network's chain id (97) must differ from LIVE_CHAIN_ID in production",
    ]);
    expect(networkEnvProblems(parse({ ...LIVE, ...TEST_NET, TEST_CHAIN_ID: '56' }), 'development')).toEqual([]);
  });

  describe('test and live apart on every network, each network with its own wallets (issue 30)', () => {
    const parseAll = (vars: Record<string, string>) => z.object({ ...NETWORK_ENV, ...RAIL_ENV }).parse(vars);
    const POLYGON = {
      RAILS: 'POLYGON:USDC',
      LIVE_POLYGON_RPC_URL: 'https://polygon-rpc.example',
      LIVE_POLYGON_GAS_WALLET_PRIVATE_KEY: `0x${'66'.repeat(32)}`,
      LIVE_POLYGON_HOT_WALLET_PRIVATE_KEY: `0x${'77'.repeat(32)}`,
      TEST_POLYGON_RPC_URL: 'https://amoy-rpc.example',
      TEST_POLYGON_USDC_ADDRESS: `0x${'88'.repeat(20)}`,
      TEST_POLYGON_GAS_WALLET_PRIVATE_KEY: `0x${'99'.repeat(32)}`,
      TEST_POLYGON_HOT_WALLET_PRIVATE_KEY: `0x${'aa'.repeat(32)}`,
    };

    it('accepts a complete configuration of both modes on two networks', () => {
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...POLYGON }), 'production')).toEqual([]);
    });

    it('refuses a live key equal to the test key, naming the test variable, on BSC and on another network', () => {
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...POLYGON, TEST_HOT_WALLET_PRIVATE_KEY: KEY }), 'production')).toEqual([
        'TEST_HOT_WALLET_PRIVATE_KEY: the same wallet as LIVE_HOT_WALLET_PRIVATE_KEY; test and live must use different keys in production',
      ]);
      const polygon = { ...POLYGON, TEST_POLYGON_GAS_WALLET_PRIVATE_KEY: POLYGON.LIVE_POLYGON_HOT_WALLET_PRIVATE_KEY };
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...polygon }), 'production')).toEqual([
        'TEST_POLYGON_GAS_WALLET_PRIVATE_KEY: the same wallet as LIVE_POLYGON_HOT_WALLET_PRIVATE_KEY; test and live must use different keys in production',
      ]);
      // The local stack shares anvil's wallets between its modes (distinct local chains): not refused there.
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...POLYGON, TEST_HOT_WALLET_PRIVATE_KEY: KEY }), 'development')).toEqual([]);
    });

    it('refuses the same deposit mnemonic in both modes', () => {
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, TEST_DEPOSIT_MNEMONIC: ` ${MNEMONIC.toUpperCase()}` }), 'production')).toEqual([
        'TEST_DEPOSIT_MNEMONIC: must differ from LIVE_DEPOSIT_MNEMONIC in production',
      ]);
    });

    it('refuses equal test and live chain ids on a network besides BSC (also through the defaults)', () => {
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...POLYGON, TEST_POLYGON_CHAIN_ID: '137' }), 'production')).toEqual([
        "TEST_POLYGON_CHAIN_ID: the test network's chain id (137) must differ from LIVE_POLYGON_CHAIN_ID in production",
      ]);
    });

    it("refuses a network without its own wallets in production: never BSC's by spread", () => {
      const { LIVE_POLYGON_HOT_WALLET_PRIVATE_KEY: _hot, TEST_POLYGON_GAS_WALLET_PRIVATE_KEY: _gas, ...partial } = POLYGON;
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...partial }), 'production')).toEqual([
        "LIVE_POLYGON_HOT_WALLET_PRIVATE_KEY: required in production for the enabled rail POLYGON:USDC (a network never uses BSC's wallets)",
        "TEST_POLYGON_GAS_WALLET_PRIVATE_KEY: required in production for the enabled rail POLYGON:USDC (a network never uses BSC's wallets)",
      ]);
    });
  });

  describe("the development mnemonic's TRON accounts (m/44'/195'/…)", () => {
    const parseAll = (vars: Record<string, string>) => z.object({ ...NETWORK_ENV, ...RAIL_ENV }).parse(vars);
    const tronKey = (i: number, branch?: string) => `0x${tronDepositKey(DEV_MNEMONIC, i, branch).privateKey}`;
    const TRON = {
      RAILS: 'TRON:USDT',
      LIVE_TRON_RPC_URL: 'https://api.trongrid.example',
      LIVE_TRON_GAS_WALLET_PRIVATE_KEY: `0x${'66'.repeat(32)}`,
      LIVE_TRON_HOT_WALLET_PRIVATE_KEY: `0x${'77'.repeat(32)}`,
      TEST_TRON_RPC_URL: 'https://nile.trongrid.example',
      TEST_TRON_USDT_ADDRESS: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
      TEST_TRON_GAS_WALLET_PRIVATE_KEY: `0x${'99'.repeat(32)}`,
      TEST_TRON_HOT_WALLET_PRIVATE_KEY: `0x${'aa'.repeat(32)}`,
    };

    it('lists the TRON branch 0..19 and the stand-in wallets 0..4, derived again', () => {
      expect(DEV_TRON_ACCOUNT_ADDRESSES).toEqual([
        ...Array.from({ length: 20 }, (_, i) => toEvm(tronDepositKey(DEV_MNEMONIC, i).hex).toLowerCase()),
        ...Array.from({ length: 5 }, (_, i) => toEvm(tronDepositKey(DEV_MNEMONIC, i, "m/44'/195'/1'/0").hex).toLowerCase()),
      ]);
    });

    it.each([
      ['LIVE_TRON_HOT_WALLET_PRIVATE_KEY', 0, undefined],
      ['LIVE_TRON_GAS_WALLET_PRIVATE_KEY', 19, undefined],
      ['TEST_TRON_HOT_WALLET_PRIVATE_KEY', 2, "m/44'/195'/1'/0"],
      ['TEST_TRON_GAS_WALLET_PRIVATE_KEY', 1, "m/44'/195'/1'/0"],
    ] as const)('refuses a development TRON key for %s (account %i) in production, never naming the key', (name, i, branch) => {
      const vars = { ...LIVE, ...TEST_NET, ...TRON, [name]: tronKey(i, branch) };
      expect(networkEnvProblems(parseAll({ ...LIVE, ...TEST_NET, ...TRON }), 'production'), 'a clean TRON configuration').toEqual([]);
      const problems = networkEnvProblems(parseAll(vars), 'production');
      expect(problems).toEqual([`${name}: a well-known development key (anvil/hardhat) is refused in production`]);
      expect(problems.join()).not.toContain(tronKey(i, branch).slice(2, 12));
      expect(networkEnvProblems(parseAll(vars), 'development')).toEqual([]);
    });
  });
});
