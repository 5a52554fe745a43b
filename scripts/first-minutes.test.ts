import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { OFFERED_CHAINS } from '@/lib/config/rails';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';

/* Issue 45, "the first minutes": what a new user reads and runs first says the truth. */
const readme = readFileSync('README.md', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

describe('the first minutes', () => {
  it("the README's curl says where $KEY comes from, and how to change the port", () => {
    const curl = readme.split('\n').find((l) => l.includes('$KEY'));
    expect(curl).toMatch(/KEY=gw_test_/);
    expect(readme.slice(readme.indexOf('$KEY'), readme.indexOf('$KEY') + 300)).toMatch(/test key from/);
    expect(readme).toMatch(/test key: +gw_test_/);
    expect(readme).toMatch(/^PORT=\d+ npm run dev/m);
  });

  it('the headline figures are three rows, with a link to the rest', () => {
    const section = readme.slice(readme.indexOf('## Headline figures'));
    const body = section.slice(0, section.indexOf('\n## ', 1) > 0 ? section.indexOf('\n## ', 1) : undefined);
    const rows = body.split('\n').filter((l) => l.startsWith('|') && !/^\|\s*(what|-)/.test(l) && !l.startsWith('|---'));
    expect(rows).toHaveLength(3);
    expect(body).toContain('(docs/performance.md');
  });

  it('npm install warns of no install script: each package with one is reviewed in allowScripts (seven were "not yet covered")', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of new Set(withScripts)) expect(pkg.allowScripts?.[name], name).toBeTypeOf('boolean');
  });

  it('the OpenAPI description of chain names every offered network, TRON and Solana included', () => {
    const description = CreateInvoiceBody.shape.chain.description ?? '';
    // Every network a tenant can choose (a rail in the table but not offered yet would not be one).
    for (const c of OFFERED_CHAINS) expect(description, c).toContain(c);
    expect(description).toContain('SOLANA');
    expect(description).toContain('TRON');
  });

  it('EBADENGINE: the Node-22-only queues are bench-only devDependencies that nothing outside bench/ imports, and the README says so', () => {
    for (const name of ['graphile-worker', 'pg-boss']) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.devDependencies[name], name).toBeDefined();
      expect(
        importersOf(name).filter((f) => !f.startsWith('bench/')),
        name,
      ).toEqual([]);
    }
    expect(pkg.engines.node).toBe('>=20.9');
    expect(readme).toMatch(/graphile-worker and pg-boss[^]*?want Node 22[^]*?EBADENGINE/);
  });
});

/** Files tracked by git that import `name`. */
function importersOf(name: string): string[] {
  try {
    return execFileSync('git', ['grep', '-l', '-E', `from '${name}'|import\\('${name}'\\)|require\\('${name}'\\)`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
  } catch (err) {
    if ((err as { status?: number }).status === 1) return []; // no match
    throw err;
  }
}
