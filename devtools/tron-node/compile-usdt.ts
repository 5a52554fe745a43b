import { readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

/** Solidity settings of the committed artifact; istanbul keeps out opcodes the TVM may lack (PUSH0, BASEFEE). */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'istanbul',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Compiles TetherTRC20.sol with the `solc` package (solcjs, no download). */
export function compileUsdt(): { abi: unknown[]; bytecode: string; compiler: string } {
  const source = readFileSync(path.join(import.meta.dirname, 'TetherTRC20.sol'), 'utf8');
  const input = { language: 'Solidity', sources: { 'TetherTRC20.sol': { content: source } }, settings: SETTINGS };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['TetherTRC20.sol']!.TetherTRC20!;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, compiler: solc.version() };
}
