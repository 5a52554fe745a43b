import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM without types (eslint.config.mjs loads it too)
import { folderCycles, importViolations, KNOWN_CYCLES, libImportEdges } from './import-graph.mjs';

const root = process.cwd();

// The same check as the lint rule gateway/no-lib-cycle, so a cycle also fails `npm test`.
describe('lib import graph', () => {
  it('has no import cycle between lib folders beyond the known ones, and lib/chain imports no domain', () => {
    const found = (importViolations(root) as { file: string; line: number; message: string }[]).map((v) => `${v.file.slice(root.length + 1)}:${v.line} ${v.message}`);
    expect(found).toEqual([]);
  });

  it('lists no known cycle that is gone (shrink KNOWN_CYCLES when one is broken)', () => {
    const cycles = (folderCycles(libImportEdges(root)) as string[][]).map((c) => c.join(','));
    for (const known of KNOWN_CYCLES as string[][]) expect(cycles).toContain([...known].sort().join(','));
  });

  it('finds a cycle through several folders', () => {
    const edges = [
      { from: 'chain', to: 'db' },
      { from: 'invoices', to: 'chain' },
      { from: 'chain', to: 'ledger' },
      { from: 'ledger', to: 'invoices' },
    ];
    expect(folderCycles(edges)).toEqual([['chain', 'invoices', 'ledger']]);
  });
});
