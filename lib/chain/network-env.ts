import { z } from 'zod';

/** The well-known development mnemonic (anvil, hardhat): anyone can spend from it, so production refuses it. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex private key');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');
const mnemonic = z
  .string()
  .trim()
  .refine((s) => [12, 15, 18, 21, 24].includes(s.split(/\s+/).length), 'must be a BIP-39 mnemonic of 12 to 24 words');
const chainId = z.coerce.number().int().min(1);
const decimals = z.coerce.number().int().min(0).max(36);
const confirmations = z.coerce.number().int().min(1).max(1000);
const block = z.coerce.number().int().min(0);

/**
 * One network per mode (TEST_* and LIVE_*): where invoices of that mode are
 * paid and settled. Unset values fall back to development defaults outside
 * production (see lib/chain/network.ts).
 */
export const NETWORK_ENV = {
  TEST_RPC_URL: z.string().url().optional(),
  TEST_CHAIN_ID: chainId.optional(),
  TEST_TOKEN_ADDRESS: address.optional(),
  TEST_TOKEN_DECIMALS: decimals.default(18),
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
  LIVE_RPC_URL: z.string().url().optional(),
  LIVE_CHAIN_ID: chainId.optional(),
  LIVE_TOKEN_ADDRESS: address.optional(),
  LIVE_TOKEN_DECIMALS: decimals.default(18),
  LIVE_CONFIRMATIONS: confirmations.default(5),
  LIVE_START_BLOCK: block.optional(),
  LIVE_DEPOSIT_MNEMONIC: mnemonic.optional(),
  LIVE_GAS_WALLET_PRIVATE_KEY: privateKey.optional(),
  LIVE_FEE_WALLET_ADDRESS: address.optional(),
  LIVE_HOT_WALLET_PRIVATE_KEY: privateKey.optional(),
};

type NetworkEnv = z.output<z.ZodObject<typeof NETWORK_ENV>>;

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
 * Production refuses to start with a missing live network or wallet, and with
 * the development mnemonic in either mode; a test network, when configured,
 * must be complete too. Returns "NAME: problem" lines.
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
    if (e[name] && e[name]!.split(/\s+/).join(' ') === DEV_MNEMONIC) {
      problems.push(`${name}: the well-known development mnemonic is refused in production`);
    }
  }
  return problems;
}
