// The folder-level import graph of lib/ and its cycles, for the lint rule
// gateway/no-lib-cycle (eslint.config.mjs) and scripts/import-graph.test.ts.
// Plain ESM on purpose: eslint loads it without a TypeScript loader.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Folders lib/chain (the chain adapter) must never import: it reports what it found, domains act on it. */
export const CHAIN_FORBIDDEN = [
  'invoices',
  'storefront',
  'withdrawals',
  'withdrawal-controls',
  'exchange',
  'webhooks',
  'ledger',
  'events',
  'jobs',
  'checkout',
  'console',
  'dashboard',
];

const isSource = (f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts');

/** The lib folder of a path under libDir ('boot.ts' for a file at lib/'s top: a composition point of its own). */
export function folderOf(libDir, file) {
  return path
    .relative(libDir, file)
    .split(path.sep)[0]
    .replace(/\.tsx?$/, '');
}

/** Every import edge between lib folders: { from, to, file, specifier, line }. Type-only imports count too. */
export function libImportEdges(root) {
  const libDir = path.join(root, 'lib');
  const files = [];
  (function walk(d) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (isSource(e.name)) files.push(p);
    }
  })(libDir);
  const edges = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const from = folderOf(libDir, file);
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveLib(libDir, file, ref.fileName);
      if (!target) continue;
      const to = folderOf(libDir, target);
      if (to !== from) edges.push({ from, to, file, specifier: ref.fileName, line: text.slice(0, ref.pos).split('\n').length });
    }
  }
  return edges;
}

function resolveLib(libDir, file, spec) {
  let abs;
  if (spec.startsWith('@/lib/')) abs = path.join(libDir, spec.slice('@/lib/'.length));
  else if (spec.startsWith('.')) abs = path.resolve(path.dirname(file), spec);
  else return null;
  const rel = path.relative(libDir, abs);
  return rel.startsWith('..') ? null : abs;
}

/** Strongly connected components (Tarjan) of the folder graph with more than one folder: the cycles. */
export function folderCycles(edges) {
  const adj = new Map();
  for (const { from, to } of edges) {
    if (!adj.has(from)) adj.set(from, new Set());
    if (!adj.has(to)) adj.set(to, new Set());
    adj.get(from).add(to);
  }
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of adj.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of adj.keys()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * What the rule reports: each import edge that lies on a folder cycle, and
 * each import of a domain from lib/chain, with a message.
 */
export function importViolations(root) {
  const edges = libImportEdges(root);
  const bad = new Map();
  for (const scc of folderCycles(edges)) for (const f of scc) bad.set(f, scc);
  const found = [];
  for (const e of edges) {
    const scc = bad.get(e.from);
    if (scc && scc.includes(e.to))
      found.push({
        ...e,
        message: `lib/${e.from} → lib/${e.to} closes an import cycle between lib folders (${scc.join(', ')}); make the arrow point one way (docs/architecture.md)`,
      });
    else if (e.from === 'chain' && CHAIN_FORBIDDEN.includes(e.to))
      found.push({
        ...e,
        message: `lib/chain is the chain adapter and imports no domain (lib/${e.to}): return what was found and let the domain act (docs/architecture.md)`,
      });
  }
  return found;
}
