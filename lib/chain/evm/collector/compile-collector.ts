import { readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

/** The settings of the other committed artifacts (lib/testing/tokens/compile-stablecoins.ts): paris runs on every EVM network we pay on. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Compiles SubscriptionCollector.sol with the `solc` package (solcjs, no download): its ABI and creation code. */
export function compileCollector(): { compiler: string; abi: unknown[]; bytecode: string } {
  const source = readFileSync(path.join(import.meta.dirname, 'SubscriptionCollector.sol'), 'utf8');
  const input = { language: 'Solidity', sources: { 'SubscriptionCollector.sol': { content: source } }, settings: SETTINGS };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['SubscriptionCollector.sol']!.SubscriptionCollector!;
  return { compiler: solc.version(), abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}
