import { privateKeyToAddress } from 'viem/accounts';
import { z } from 'zod';
import { CHAIN_SPECS, parseRails } from '@/lib/config/rails';
import { ENV_ADDRESS } from './env-addresses';
import { solanaDevKeyProblems } from './solana/dev-key-problems';
import { SOLANA_ENV } from './solana/solana-env';
import { modeSeparationProblems, railEnvProblems } from './rail-env-problems';

/** The well-known development mnemonic (anvil, hardhat): anyone can spend from it, so production refuses it. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * The accounts m/44'/60'/0'/0/0..19 of DEV_MNEMONIC: anvil's ten default accounts and hardhat's twenty,
 * whose private keys are printed by every local node and published everywhere. Production refuses any
 * wallet (gas, hot, faucet key, fee address) that is one of them. network-env.test.ts derives them again.
 */
export const DEV_ACCOUNT_ADDRESSES: readonly string[] = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  '0x90f79bf6eb2c4f870365e785982e1f101e93b906',
  '0x15d34aaf54267db7d7c367839aaf71a00a2c6a65',
  '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc',
  '0x976ea74026e726554db657fa54763abd0c3a0aa9',
  '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
  '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
  '0xa0ee7a142d267c1f36714e4a8f75612f20a79720',
  '0xbcd4042de499d14e55001ccbb24a551f3b954096',
  '0x71be63f3384f5fb98995898a86b02fb2426c5788',
  '0xfabb0ac9d68b0b445fb7357272ff202c5651694a',
  '0x1cbd3b2770909d4e10f157cabc84c7264073c9ec',
  '0xdf3e18d64bc6a983f673ab319ccae4f1a57c7097',
  '0xcd3b766ccdd6ae721141f452c550ca635964ce71',
  '0x2546bcd3c84621e976d8185a91a922ae77ecec30',
  '0xbda5747bfd65f08deb54cb465eb87d40e51b197e',
  '0xdd2fd4581271e230360230f9337d5c0430bf44c0',
  '0x8626f6940e2eb28930efb4cef49b2d1f2c9c1199',
];

/**
 * The 20 bytes of the development mnemonic's TRON accounts: m/44'/195'/0'/0/0..19 (the dev and test deposit
 * branch) and m/44'/195'/1'/0/0..4 (the TRON stand-in's issuer, energy, hot, fee and other wallets,
 * devtools/tron-node/dev-keys.ts). A key is compared by its 20 bytes, the same on TRON (41…) and EVM, so
 * production refuses these for every wallet key as it refuses anvil's. network-env.test.ts derives them again.
 */
export const DEV_TRON_ACCOUNT_ADDRESSES: readonly string[] = [
  '0xe2e1a54926527fbb4e4420de4c6bab82beaee24d',
  '0x9705bf55c3dcc6d277ebb8fe2a68762268822ba2',
  '0x0c96c0e10bb5e7e7edacf82ad00e3d60790351da',
  '0x32ab5167665722351b42cfa8302a81b695bb6639',
  '0xf84991394bb0a02cd655c1c70321cc8ed479316d',
  '0x899fa251f347f8ccc4c48003c725cf71c178c234',
  '0xf599d98ec243a0a49f9ad2d44a2259f2d31a3f2f',
  '0x299cc4bba8e3a26a71cef5bf7ee998814ccec5c1',
  '0x97c5165a3cbe5838e805c872bc387917dea7d67a',
  '0x61e8cd25d5472d70fa70fef87974ad3a43af5ff1',
  '0x9d38f6c824c2347b1c22e91a4125e7b4c4ca775f',
  '0xf20ece47fa1dc030e7e9f55373d6ba0702d40fde',
  '0x97b4e66f6886409d577f90f70c6e2162ef9341f6',
  '0xd2747bf8be3db4e426223105000929db851534d1',
  '0xe8be19580c93876e9e3941e5d7637207f295feb2',
  '0xac574e6acd0046011fbb0384296d5604f8cbf7dc',
  '0x2a5f704b9b644320f13770189b92df6eef223e4e',
  '0xcbe80b9b5c9717cac27e2851fcf03e6454d1c862',
  '0x83c7c32467fc43101bc57ba44321914cf990c507',
  '0x2e72a6697356fdab23f5a7cc2f7e19a44ead6c02',
  '0x1e5fb653b0d00d037f9da8fd08da7b0f31bd64ad',
  '0xa115dbb164643804651d289b178277518b80bd61',
  '0x0aa7049c71b95eea0a71f0876d7810b22e407f26',
  '0x40c9764f13db3f449cdb8e1b118057314bf2be4f',
  '0xb0a7ca338f0157c09cbacc7fdb6e52f013a26499',
];

/** Chain ids the networks take in production when *_CHAIN_ID is unset: BSC mainnet, BSC testnet. */
export const PRODUCTION_DEFAULT_CHAIN_ID = { live: 56, test: 97 } as const;

const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key');
/** The unprefixed variables' addresses are BSC's; the fee wallet is one account, written in BSC's form, on every network. */
const address = ENV_ADDRESS[CHAIN_SPECS.BSC.family];
const mnemonic = z
  .string()
  .trim()
  .refine((s) => [12, 15, 18, 21, 24].includes(s.split(/\s+/).length), 'must be a BIP-39 mnemonic of 12 to 24 words');
const chainId = z.coerce.number().int().min(1);
const decimals = z.coerce.number().int().min(0).max(36);
const symbol = z.string().trim().min(1).max(32);
const confirmations = z.coerce.number().int().min(1).max(1000);
const block = z.coerce.number().int().min(0);
const decimal = z
  .string()
  .trim()
  .regex(/^\d{1,20}(\.\d{1,18})?$/, 'must be a decimal number such as 1.00');

/**
 * One network per mode (TEST_* and LIVE_*): where invoices of that mode are
 * paid and settled. Unset values fall back to development defaults outside
 * production (see lib/chain/network.ts).
 */
export const NETWORK_ENV = {
  /** Rails besides BSC USDT (always on), e.g. `BSC:USDC,ETHEREUM:USDT`: see RAIL_ENV. */
  RAILS: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        parseRails(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  TEST_RPC_URL: z.string().url().optional(),
  TEST_CHAIN_ID: chainId.optional(),
  TEST_TOKEN_ADDRESS: address.optional(),
  TEST_TOKEN_DECIMALS: decimals.default(18),
  /** What BSC USDT's symbol() must answer (default USDT): for a testnet token named otherwise (docs/rails.md, "Rail checks"). */
  TEST_TOKEN_SYMBOL: symbol.optional(),
  TEST_CONFIRMATIONS: confirmations.default(5),
  /** Block the watcher starts from on first run; default: a few blocks below the head. */
  TEST_START_BLOCK: block.optional(),
  /** Deposit addresses are m/44'/60'/0'/0/<index> of this mnemonic. */
  TEST_DEPOSIT_MNEMONIC: mnemonic.optional(),
  /** Pays the BNB gas top-ups of deposit addresses. */
  TEST_GAS_WALLET_PRIVATE_KEY: privateKey.optional(),
  /** Receives the gateway's fee on each settlement. */
  TEST_FEE_WALLET_ADDRESS: address.optional(),
  /** Custody (hot) wallet: receives settled funds; its key sends withdrawals. */
  TEST_HOT_WALLET_PRIVATE_KEY: privateKey.optional(),
  /** Test mode only: holds the test USDT that POST /v1/test-helpers/invoices/:id/pay sends. */
  TEST_FAUCET_PRIVATE_KEY: privateKey.optional(),
  /** A deposit address is swept only once it holds at least this much USDT (dust is credited but left in place, so dust cannot drain the gas wallet). */
  TEST_SWEEP_MINIMUM_USDT: decimal.default('1.00'),
  /** The console's low-balance warning for the gas wallet, in BNB. */
  TEST_GAS_WALLET_LOW_BNB: decimal.default('0.05'),
  LIVE_RPC_URL: z.string().url().optional(),
  LIVE_CHAIN_ID: chainId.optional(),
  LIVE_TOKEN_ADDRESS: address.optional(),
  LIVE_TOKEN_DECIMALS: decimals.default(18),
  LIVE_TOKEN_SYMBOL: symbol.optional(),
  LIVE_CONFIRMATIONS: confirmations.default(5),
  LIVE_START_BLOCK: block.optional(),
  LIVE_DEPOSIT_MNEMONIC: mnemonic.optional(),
  LIVE_GAS_WALLET_PRIVATE_KEY: privateKey.optional(),
  LIVE_FEE_WALLET_ADDRESS: address.optional(),
  LIVE_HOT_WALLET_PRIVATE_KEY: privateKey.optional(),
  LIVE_SWEEP_MINIMUM_USDT: decimal.default('1.00'),
  LIVE_GAS_WALLET_LOW_BNB: decimal.default('0.05'),
};

/** Networks besides BSC: their variables are `<MODE>_<CHAIN>_<NAME>` (TEST_ETHEREUM_RPC_URL, ...). */
export const EXTRA_CHAINS = ['ETHEREUM', 'POLYGON', 'ARBITRUM', 'BASE', 'TRON'] as const;

/**
 * Rails besides BSC USDT (always on): RAILS=BSC:USDC,ETHEREUM:USDT lists the
 * enabled ones (lib/config/rails.ts). Each extra network needs its RPC URL; its
 * token contracts default to mainnet's in live mode (production) and must be
 * given otherwise; its wallets default to the mode's BSC wallets (the same key
 * is the same address on every EVM chain).
 */
const trxBurnFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const RAIL_ENV: Record<string, z.ZodType> = {
  ...Object.fromEntries(
    (['TEST', 'LIVE'] as const).flatMap((p) => [
      [`${p}_BSC_USDC_ADDRESS`, address.optional()],
      [`${p}_BSC_USDC_SYMBOL`, symbol.optional()],
      /** EVM networks: the disperse contract batch payouts are sent through (docs/payouts.md); unset: one transfer per item. */
      ...(['BSC', ...EXTRA_CHAINS] as const).map((c) => [`${p}_${c}_DISPERSE_ADDRESS`, address.optional()] as const),
      /**
       * EVM and TRON networks: the subscription collector payers approve (docs/subscriptions.md), in the network's own
       * address form (`0x…`, `T…`); unset: subscriptions are e-mailed invoices only.
       */
      ...(['BSC', ...EXTRA_CHAINS] as const).map((c) => [`${p}_${c}_COLLECTOR_ADDRESS`, ENV_ADDRESS[CHAIN_SPECS[c].family].optional()] as const),
      /** Its admin key: the pull job allows each period's deposit address with it (docs/subscriptions.md). */
      ...(['BSC', ...EXTRA_CHAINS] as const).map((c) => [`${p}_${c}_COLLECTOR_ADMIN_PRIVATE_KEY`, privateKey.optional()] as const),
      ...EXTRA_CHAINS.flatMap((c) => [
        [`${p}_${c}_RPC_URL`, z.string().url().optional()],
        [`${p}_${c}_CHAIN_ID`, chainId.optional()],
        [`${p}_${c}_CONFIRMATIONS`, confirmations.optional()],
        [`${p}_${c}_START_BLOCK`, block.optional()],
        [`${p}_${c}_USDT_ADDRESS`, ENV_ADDRESS[CHAIN_SPECS[c].family].optional()],
        [`${p}_${c}_USDC_ADDRESS`, ENV_ADDRESS[CHAIN_SPECS[c].family].optional()],
        [`${p}_${c}_USDT_SYMBOL`, symbol.optional()],
        [`${p}_${c}_USDC_SYMBOL`, symbol.optional()],
        [`${p}_${c}_GAS_WALLET_PRIVATE_KEY`, privateKey.optional()],
        [`${p}_${c}_HOT_WALLET_PRIVATE_KEY`, privateKey.optional()],
        /** Test mode only: the network's own faucet for the pay helper, when TEST_FAUCET_PRIVATE_KEY holds nothing there (the TRON stand-in's). */
        ...(p === 'TEST' ? [[`TEST_${c}_FAUCET_PRIVATE_KEY`, privateKey.optional()] as const] : []),
        /** The gas wallet's floor in that network's coin (console warning, solvency alert); default the mode's *_GAS_WALLET_LOW_BNB. */
        [`${p}_${c}_GAS_WALLET_LOW`, decimal.optional()],
      ]),
      /**
       * TRON sweeps: when the energy wallet cannot delegate the energy a sweep needs (too little stake and TRX to
       * stake), send the deposit address the TRX to burn for it (~6–13 TRX a sweep) instead of refusing. Default off.
       */
      [`${p}_TRON_ALLOW_TRX_BURN`, trxBurnFlag],
      /** TRON: the console warns and the solvency job alerts when the energy wallet can pay fewer sweeps than this. */
      [`${p}_TRON_ENERGY_LOW_SWEEPS`, z.coerce.number().int().nonnegative().optional()],
    ]),
  ),
  ...SOLANA_ENV,
};

type NetworkEnv = z.output<z.ZodObject<typeof NETWORK_ENV>> & Record<string, unknown>;

const LIVE_REQUIRED = [
  'LIVE_RPC_URL',
  'LIVE_CHAIN_ID',
  'LIVE_TOKEN_ADDRESS',
  'LIVE_DEPOSIT_MNEMONIC',
  'LIVE_GAS_WALLET_PRIVATE_KEY',
  'LIVE_FEE_WALLET_ADDRESS',
  'LIVE_HOT_WALLET_PRIVATE_KEY',
] as const;

/**
 * Production refuses to start with a missing live network or wallet, with the
 * development mnemonic or a well-known development key or account for any
 * wallet in either mode, and with equal test and live chain ids; a test network,
 * when configured, must be complete too. Returns "NAME: problem" lines (never values).
 */
export function networkEnvProblems(e: NetworkEnv, appEnv: string): string[] {
  if (appEnv !== 'production') return [];
  const problems: string[] = [];
  for (const name of LIVE_REQUIRED) if (e[name] === undefined) problems.push(`${name}: required in production`);
  if (e.TEST_RPC_URL !== undefined) {
    for (const name of LIVE_REQUIRED) {
      const testName = name.replace('LIVE_', 'TEST_') as keyof NetworkEnv;
      if (e[testName] === undefined) problems.push(`${testName}: required when TEST_RPC_URL is set in production`);
    }
  }
  for (const name of ['LIVE_DEPOSIT_MNEMONIC', 'TEST_DEPOSIT_MNEMONIC'] as const) {
    if (e[name] && e[name]!.trim().toLowerCase().split(/\s+/).join(' ') === DEV_MNEMONIC) {
      problems.push(`${name}: the well-known development mnemonic is refused in production`);
    }
  }
  // Anyone holding a well-known key spends from that wallet: refuse it for every wallet, either mode.
  const dev = new Set([...DEV_ACCOUNT_ADDRESSES, ...DEV_TRON_ACCOUNT_ADDRESSES]);
  for (const name of [
    'LIVE_GAS_WALLET_PRIVATE_KEY',
    'LIVE_HOT_WALLET_PRIVATE_KEY',
    'TEST_GAS_WALLET_PRIVATE_KEY',
    'TEST_HOT_WALLET_PRIVATE_KEY',
    'TEST_FAUCET_PRIVATE_KEY',
    ...EXTRA_CHAINS.flatMap((c) => [
      ...(['LIVE', 'TEST'] as const).flatMap((p) => [`${p}_${c}_GAS_WALLET_PRIVATE_KEY`, `${p}_${c}_HOT_WALLET_PRIVATE_KEY`]),
      `TEST_${c}_FAUCET_PRIVATE_KEY`,
    ]),
    ...(['BSC', ...EXTRA_CHAINS] as const).flatMap((c) => (['LIVE', 'TEST'] as const).map((p) => `${p}_${c}_COLLECTOR_ADMIN_PRIVATE_KEY`)),
  ]) {
    const key = e[name] as string | undefined;
    if (key && dev.has(privateKeyToAddress(key as `0x${string}`).toLowerCase())) {
      problems.push(`${name}: a well-known development key (anvil/hardhat) is refused in production`);
    }
  }
  for (const name of ['LIVE_FEE_WALLET_ADDRESS', 'TEST_FEE_WALLET_ADDRESS'] as const) {
    if (e[name] && dev.has(e[name]!.toLowerCase()))
      problems.push(`${name}: a well-known development account (anvil/hardhat) is refused in production`);
  }
  // Equal chain ids would let one mode's lanes, addresses and transfers be taken for the other's.
  const testChainId = e.TEST_CHAIN_ID ?? PRODUCTION_DEFAULT_CHAIN_ID.test;
  if (e.LIVE_CHAIN_ID !== undefined && testChainId === e.LIVE_CHAIN_ID) {
    problems.push(`TEST_CHAIN_ID: the test network's chain id (${testChainId}) must differ from LIVE_CHAIN_ID in production`);
  }
  problems.push(...railEnvProblems(e), ...modeSeparationProblems(e));
  problems.push(
    ...solanaDevKeyProblems(e, {
      modes: e.TEST_RPC_URL !== undefined ? ['LIVE', 'TEST'] : ['LIVE'],
      railEnabled: parseRails(e.RAILS).some((r) => CHAIN_SPECS[r.chain].family === CHAIN_SPECS.SOLANA.family),
    }),
  );
  return problems;
}
