import { readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

/** Same settings as the stablecoin stand-ins (lib/testing/tokens/compile-stablecoins.ts). */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Compiles TestSanctionsList.sol with the `solc` package (solcjs, no download): its ABI and creation code. */
export function compileSanctionsList(): { compiler: string; abi: unknown[]; bytecode: string } {
  const source = readFileSync(path.join(import.meta.dirname, 'TestSanctionsList.sol'), 'utf8');
  const input = { language: 'Solidity', sources: { 'TestSanctionsList.sol': { content: source } }, settings: SETTINGS };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['TestSanctionsList.sol']!.TestSanctionsList!;
  return { compiler: solc.version(), abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}
