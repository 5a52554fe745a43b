import { privateKeyToAddress } from 'viem/accounts';
import { CHAIN_SPECS, parseRails, type ChainKey } from './rails';
import { networkVariable } from './rail-variables';

type RawEnv = Record<string, unknown>;
const MODES = ['live', 'test'] as const;

/** A mode's network is configured in production when it has an RPC URL: live always must, test when TEST_RPC_URL is set. */
const modeConfigured = (e: RawEnv, mode: 'live' | 'test') => mode === 'live' || e.TEST_RPC_URL !== undefined;

function enabledChains(e: RawEnv): ChainKey[] {
  return [...new Set(parseRails(e.RAILS as string | undefined).map((r) => r.chain))];
}

/**
 * Production: every enabled rail's network has its RPC URL and its own gas and hot wallet keys (a network
 * never borrows BSC's: a key shared across networks is one nonce space and one compromise for all of them),
 * and each token a contract (mainnet's by default on mainnet). "NAME: problem" lines, never values.
 */
export function railEnvProblems(e: RawEnv): string[] {
  const problems: string[] = [];
  const rails = parseRails(e.RAILS as string | undefined);
  for (const mode of MODES) {
    if (!modeConfigured(e, mode)) continue;
    const p = mode === 'live' ? 'LIVE' : 'TEST';
    for (const chain of enabledChains(e)) {
      if (chain === 'BSC') continue; // the mode's own variables, required with the live network
      const on = rails.filter((r) => r.chain === chain).map((r) => `${r.chain}:${r.token}`);
      const name = networkVariable(mode, chain, 'RPC_URL');
      if (e[name] === undefined) problems.push(`${name}: required for the enabled rail ${on.join(', ')}`);
      for (const wallet of ['GAS_WALLET_PRIVATE_KEY', 'HOT_WALLET_PRIVATE_KEY'] as const) {
        const key = networkVariable(mode, chain, wallet);
        if (e[key] === undefined)
          problems.push(`${key}: required in production for the enabled rail ${on.join(', ')} (a network never uses BSC's wallets)`);
      }
    }
    for (const { chain, token } of rails) {
      if (chain === 'BSC' && token === 'USDT') continue;
      const chainIdValue = e[networkVariable(mode, chain, 'CHAIN_ID')] ?? CHAIN_SPECS[chain].chainId[mode];
      const onMainnet = mode === 'live' && chainIdValue === CHAIN_SPECS[chain].chainId.live;
      if (e[`${p}_${chain}_${token}_ADDRESS`] === undefined && !onMainnet) {
        problems.push(`${p}_${chain}_${token}_ADDRESS: required for the enabled rail ${chain}:${token} off mainnet`);
      }
    }
  }
  return problems;
}

const normalMnemonic = (m: unknown) => (typeof m === 'string' ? m.trim().toLowerCase().split(/\s+/).join(' ') : undefined);

/**
 * Production: test and live are apart on every enabled network: different chain ids (BSC's is checked
 * with the live network's variables), different wallet keys (a test key that is also a live key would
 * let test traffic spend, or be mistaken for, live money) and a different deposit mnemonic (the same
 * addresses in both modes would put live payments on test invoices). Names the test variable.
 */
export function modeSeparationProblems(e: RawEnv): string[] {
  const problems: string[] = [];
  if (normalMnemonic(e.TEST_DEPOSIT_MNEMONIC) !== undefined && normalMnemonic(e.TEST_DEPOSIT_MNEMONIC) === normalMnemonic(e.LIVE_DEPOSIT_MNEMONIC)) {
    problems.push('TEST_DEPOSIT_MNEMONIC: must differ from LIVE_DEPOSIT_MNEMONIC in production');
  }
  if (!modeConfigured(e, 'test')) return problems;
  const addressOf = (name: string) => {
    const key = e[name];
    return typeof key === 'string' ? privateKeyToAddress(key as `0x${string}`).toLowerCase() : undefined;
  };
  for (const chain of enabledChains(e)) {
    if (chain !== 'BSC') {
      const [testId, liveId] = [networkVariable('test', chain, 'CHAIN_ID'), networkVariable('live', chain, 'CHAIN_ID')];
      const test = e[testId] ?? CHAIN_SPECS[chain].chainId.test;
      const live = e[liveId] ?? CHAIN_SPECS[chain].chainId.live;
      if (test === live) problems.push(`${testId}: the test network's chain id (${String(test)}) must differ from ${liveId} in production`);
    }
    const live = new Map<string, string>();
    for (const w of ['GAS_WALLET_PRIVATE_KEY', 'HOT_WALLET_PRIVATE_KEY'] as const) {
      const name = networkVariable('live', chain, w);
      const address = addressOf(name);
      if (address) live.set(address, name);
    }
    const testKeys = [networkVariable('test', chain, 'GAS_WALLET_PRIVATE_KEY'), networkVariable('test', chain, 'HOT_WALLET_PRIVATE_KEY')];
    testKeys.push('TEST_FAUCET_PRIVATE_KEY', `TEST_${chain}_FAUCET_PRIVATE_KEY`); // the test mode's faucets
    for (const name of testKeys) {
      const same = live.get(addressOf(name) ?? '');
      if (same) problems.push(`${name}: the same wallet as ${same}; test and live must use different keys in production`);
    }
  }
  return problems;
}
