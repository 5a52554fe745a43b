import { readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

/** The contracts of TestStablecoins.sol, one per freeze list (lib/config/rails.ts, `freezeList`). */
export const STABLECOIN_CONTRACTS = ['TestToken', 'TestTetherToken', 'TestTetherTokenV2', 'TestFiatToken'] as const;
export type StablecoinContract = (typeof STABLECOIN_CONTRACTS)[number];

/** Solidity settings of the committed artifact (paris: anvil runs every later opcode too, but the artifact stays portable). */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Compiles TestStablecoins.sol with the `solc` package (solcjs, no download): each contract's ABI and creation code. */
export function compileStablecoins(): { compiler: string; contracts: Record<StablecoinContract, { abi: unknown[]; bytecode: string }> } {
  const source = readFileSync(path.join(import.meta.dirname, 'TestStablecoins.sol'), 'utf8');
  const input = { language: 'Solidity', sources: { 'TestStablecoins.sol': { content: source } }, settings: SETTINGS };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const file = out.contracts['TestStablecoins.sol']!;
  const contracts = Object.fromEntries(
    STABLECOIN_CONTRACTS.map((name) => [name, { abi: file[name]!.abi, bytecode: `0x${file[name]!.evm.bytecode.object}` }]),
  ) as Record<StablecoinContract, { abi: unknown[]; bytecode: string }>;
  return { compiler: solc.version(), contracts };
}
