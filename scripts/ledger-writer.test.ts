import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();

/** Folders of source that may touch the database (node_modules, build output and migrations are not scanned). */
const SCANNED = ['app', 'lib', 'jobs', 'scripts', 'bench', 'components', 'devtools', 'db/schema'];

/** lib/ledger writes balances and ledger_entries; tests and bench fixtures set up rows directly. */
const allowed = (path: string) =>
  path.startsWith('lib/ledger/') || /\.test\.tsx?$/.test(path) || path.startsWith('bench/') || path.startsWith('lib/testing/');

// Drizzle (insert(balances), update(ledgerEntries), delete(...)) and raw SQL (insert into balances, update ledger_entries b, delete from ...).
const WRITES = [
  /\b(?:insert|update|delete)\(\s*(?:balances|ledgerEntries)\s*\)/,
  /\binsert\s+into\s+(?:balances|ledger_entries)\b/i,
  /\bupdate\s+(?:balances|ledger_entries)\b/i,
  /\bdelete\s+from\s+(?:balances|ledger_entries)\b/i,
  /\btruncate\s+(?:table\s+)?(?:balances|ledger_entries)\b/i,
];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sourceFiles(p);
    else if (/\.(ts|tsx|mjs)$/.test(name)) yield p;
  }
}

/** Every line outside the allowed files that writes balances or ledger_entries, as `path:line`. */
function ledgerWriters(base: string, files?: { path: string; text: string }[]): string[] {
  const all =
    files ??
    SCANNED.flatMap((d) => {
      try {
        return [...sourceFiles(join(base, d))].map((p) => ({ path: relative(base, p), text: readFileSync(p, 'utf8') }));
      } catch {
        return [];
      }
    });
  const out: string[] = [];
  for (const f of all) {
    if (allowed(f.path)) continue;
    f.text.split('\n').forEach((line, i) => {
      if (WRITES.some((re) => re.test(line))) out.push(`${f.path}:${i + 1}`);
    });
  }
  return out;
}

// docs/architecture.md: lib/ledger is the only writer of balances and ledger_entries.
describe('ledger writer', () => {
  it('only lib/ledger writes balances and ledger_entries', () => {
    expect(ledgerWriters(root)).toEqual([]);
  });

  it('finds a planted write in another folder, drizzle or raw SQL', () => {
    const planted = [
      { path: 'lib/invoices/x.ts', text: 'await tx.update(balances).set({ available: "1" });' },
      { path: 'lib/withdrawals/y.ts', text: 'sql`\n  update balances b set available = 0`' },
      { path: 'app/z.ts', text: 'sql`INSERT INTO ledger_entries (id) values (1)`' },
      { path: 'lib/ledger/ok.ts', text: 'sql`update balances set available = 0`' },
      { path: 'lib/exchange/read.ts', text: 'sql`select available from balances where tenant_id = 1 for update`' },
    ];
    expect(ledgerWriters(root, planted)).toEqual(['lib/invoices/x.ts:1', 'lib/withdrawals/y.ts:2', 'app/z.ts:1']);
  });
});
