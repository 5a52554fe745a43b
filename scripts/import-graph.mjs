// The folder-level import graph of lib/ and its cycles, and the imports of app/ from components/, for the
// lint rule gateway/no-lib-cycle (eslint.config.mjs) and scripts/import-graph.test.ts.
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

/**
 * The two nodes an import from `file` to `target` (both under libDir) joins: the children of their deepest
 * common folder that hold each. At lib/'s top that is the lib folder (lib/refunds → lib/ledger); inside one
 * folder, its sub-folders (lib/a/b → lib/a/c), and the files beside them count as that folder itself
 * (lib/refunds/requests → lib/refunds): a sub-folder sits below or above its parent's own files as a whole, so
 * lib/refunds/x.ts → lib/refunds/requests and lib/refunds/requests → lib/refunds/y.ts is a cycle. Null for an
 * import between files beside each other (a module cycle, not a folder cycle).
 */
export function edgeNodes(libDir, file, target) {
  const a = path.relative(libDir, file).split(path.sep);
  const b = path.relative(libDir, target).split(path.sep);
  let k = 0;
  while (k < a.length - 1 && k < b.length - 1 && a[k] === b[k]) k++;
  // A file directly in the common folder (k > 0) is that folder; at lib's top it is a node of its own (lib/boot.ts).
  const node = (parts) => (k > 0 && parts.length === k + 1 ? parts.slice(0, k) : parts.slice(0, k + 1)).join('/').replace(/\.tsx?$/, '');
  const from = node(a);
  const to = node(b);
  return from === to ? null : { from, to };
}

const sourcesUnder = (dir) => {
  const files = [];
  (function walk(d) {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (isSource(e.name)) files.push(p);
    }
  })(dir);
  return files;
};

const lineOf = (text, pos) => text.slice(0, pos).split('\n').length;

/**
 * Every import edge between lib folders, and between sub-folders of one lib folder (`from`/`to` are paths
 * under lib/, see edgeNodes): { from, to, file, specifier, line }. Type-only imports count too.
 */
export function libImportEdges(root) {
  const libDir = path.join(root, 'lib');
  const edges = [];
  for (const file of sourcesUnder(libDir)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const target = resolveLib(libDir, file, ref.fileName);
      if (!target) continue;
      const nodes = edgeNodes(libDir, file, target);
      if (nodes) edges.push({ ...nodes, file, specifier: ref.fileName, line: lineOf(text, ref.pos) });
    }
  }
  return edges;
}

/**
 * Imports of app/ from components/: shared UI sits below the routes that use it, so a component never
 * imports a page or a route's server actions (those a component calls live in components/<area>/actions.ts,
 * docs/architecture.md). { file, specifier, line }.
 */
export function componentAppImports(root) {
  const appDir = path.join(root, 'app');
  const found = [];
  for (const file of sourcesUnder(path.join(root, 'components'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const spec = ref.fileName;
      const abs = spec.startsWith('@/') ? path.join(root, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
      if (!abs || path.relative(appDir, abs).startsWith('..')) continue;
      found.push({ file, specifier: spec, line: lineOf(text, ref.pos) });
    }
  }
  return found;
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
 * What the rule reports: each import edge that lies on a folder cycle (between lib folders or sub-folders of
 * one), each import of a domain from lib/chain, and each import of app/ from components/, with a message.
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
  for (const e of componentAppImports(root))
    found.push({
      ...e,
      message: `components/ imports nothing from app/: move what a component needs (a server action) to components/<area>/actions.ts (docs/architecture.md)`,
    });
  return found;
}
