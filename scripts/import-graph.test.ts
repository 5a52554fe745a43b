import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM without types (eslint.config.mjs loads it too)
import { componentAppImports, folderCycles, importViolations, libImportEdges } from './import-graph.mjs';

const root = process.cwd();

// The same check as the lint rule gateway/no-lib-cycle, so a cycle also fails `npm test`.
describe('lib import graph', () => {
  it('has no import cycle between lib folders or their sub-folders, lib/chain imports no domain, components/ imports nothing from app/', () => {
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

  /** A throwaway project tree: { 'lib/a/b/x.ts': "import ...", ... }. */
  const tree = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
    for (const [f, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), text);
    }
    return dir;
  };
  const messages = (dir: string) =>
    (importViolations(dir) as { file: string; message: string }[]).map((v) => `${v.file.slice(dir.length + 1)} ${v.message}`);

  it('finds a cycle between two sub-folders of one lib folder, not a file importing the file beside it', () => {
    const dir = tree({
      'lib/a/b/x.ts': "import { y } from '../c/y';\nexport const x = 1;",
      'lib/a/c/y.ts': "import { x } from '@/lib/a/b/x';\nexport const y = 2;",
      'lib/a/p.ts': "import { q } from './q';\nexport const p = 1;",
      'lib/a/q.ts': "import { p } from './p';\nexport const q = 1;",
      'lib/d/z.ts': "import { x } from '@/lib/a/b/x';",
    });
    expect(folderCycles(libImportEdges(dir))).toEqual([['a/b', 'a/c']]);
    expect(messages(dir)).toEqual([
      expect.stringMatching(/^lib\/a\/b\/x\.ts lib\/a\/b → lib\/a\/c closes an import cycle/),
      expect.stringMatching(/^lib\/a\/c\/y\.ts lib\/a\/c → lib\/a\/b closes an import cycle/),
    ]);
  });

  it("finds a cycle between a sub-folder and its parent folder's own files (lib/refunds/requests ↔ lib/refunds)", () => {
    const dir = tree({
      'lib/refunds/create-refund.ts': "import { decided } from './requests/decided-by';\nexport const create = 1;",
      'lib/refunds/terms.ts': 'export const terms = 1;',
      'lib/refunds/requests/decided-by.ts': 'export const decided = 1;',
      'lib/refunds/requests/auto-refund.ts': "import { terms } from '@/lib/refunds/terms';",
      'lib/refunds/claims/redeem.ts': "import { terms } from '../terms';\nimport { decided } from '../requests/decided-by';",
    });
    expect(folderCycles(libImportEdges(dir))).toEqual([['refunds', 'refunds/requests']]);
    expect(messages(dir)).toEqual([
      expect.stringMatching(/^lib\/refunds\/create-refund\.ts lib\/refunds → lib\/refunds\/requests closes an import cycle/),
      expect.stringMatching(/^lib\/refunds\/requests\/auto-refund\.ts lib\/refunds\/requests → lib\/refunds closes an import cycle/),
    ]);
  });

  it('finds a component importing from app/, by alias or relative path', () => {
    const dir = tree({
      'components/area/form.tsx': "import { act } from '@/app/area/actions';",
      'components/area/deep/other.tsx': "import { act } from '../../../app/area/actions';\nimport { ok } from '@/components/area/actions';",
      'components/area/actions.ts': "'use server';\nexport async function ok() {}",
      'app/area/actions.ts': "'use server';\nexport async function act() {}",
    });
    expect(
      (componentAppImports(dir) as { file: string; specifier: string }[]).map((v) => `${v.file.slice(dir.length + 1)} ${v.specifier}`).sort(),
    ).toEqual(['components/area/deep/other.tsx ../../../app/area/actions', 'components/area/form.tsx @/app/area/actions']);
    expect(messages(dir)).toHaveLength(2);
  });
});
