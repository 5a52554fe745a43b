import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM without types (eslint.config.mjs loads it too)
import { folderCycles, importViolations, libImportEdges } from './import-graph.mjs';

const root = process.cwd();

// The same check as the lint rule gateway/no-lib-cycle, so a cycle also fails `npm test`.
describe('lib import graph', () => {
  it('has no import cycle between lib folders, and lib/chain imports no domain', () => {
    const found = (importViolations(root) as { file: string; line: number; message: string }[]).map(
      (v) => `${v.file.slice(root.length + 1)}:${v.line} ${v.message}`,
    );
    expect(found).toEqual([]);
  });

  it('has no folder cycle at all (nothing is allowed)', () => {
    expect(folderCycles(libImportEdges(root))).toEqual([]);
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
