/**
 * First-load JavaScript per app page from the last `next build` (Next 16 no
 * longer prints it): the root main files plus the page's entry chunks from its
 * client reference manifest, gzip-compressed (level 9, like a CDN would).
 * Lazy chunks (next/dynamic) are listed separately. Usage: tsx scripts/bundle-size.ts [route-prefix]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const NEXT = path.resolve('.next');
const prefix = process.argv[2] ?? '';
const gz = new Map<string, number>();
const size = (file: string) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(NEXT, file)), { level: 9 }).length);
  return gz.get(file)!;
};

function manifests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return manifests(p);
    return name === 'page_client-reference-manifest.js' ? [p] : [];
  });
}

const root: string[] = JSON.parse(readFileSync(path.join(NEXT, 'build-manifest.json'), 'utf8')).rootMainFiles;
const rows: { route: string; kb: number; lazyKb: number }[] = [];
for (const file of manifests(path.join(NEXT, 'server/app'))) {
  const g = globalThis as { __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }> };
  g.__RSC_MANIFEST = {};
  new Function(readFileSync(file, 'utf8'))();
  const [key, m] = Object.entries(g.__RSC_MANIFEST)[0]!;
  const route = key.replace(/\/page$/, '') || '/';
  if (!route.startsWith(prefix)) continue;
  const entry = m.entryJSFiles[`[project]/app${key}`] ?? Object.values(m.entryJSFiles).flat();
  const files = new Set([...root, ...Object.values(m.entryJSFiles).flat(), ...entry]);
  const total = [...files].reduce((s, f) => s + size(f), 0);
  let lazy = 0;
  try {
    const loadable = JSON.parse(readFileSync(path.join(path.dirname(file), 'page/react-loadable-manifest.json'), 'utf8')) as Record<
      string,
      { files: string[] }
    >;
    const lazyFiles = new Set(
      Object.values(loadable).flatMap((l) =>
        l.files.filter((f) => f.endsWith('.js')).map((f) => (f.startsWith('static/') ? f : `static/${f.replace(/^\/?_next\/static\//, '')}`)),
      ),
    );
    for (const f of lazyFiles) if (!files.has(f)) lazy += size(f);
  } catch {
    /* no lazy chunks */
  }
  rows.push({ route, kb: total / 1024, lazyKb: lazy / 1024 });
}
rows.sort((a, b) => a.route.localeCompare(b.route));
console.log('| Route | First load JS (gzip) | Lazy after load (gzip) |\n|---|---:|---:|');
for (const r of rows) console.log(`| ${r.route} | ${r.kb.toFixed(1)} KB | ${r.lazyKb ? `${r.lazyKb.toFixed(1)} KB` : '—'} |`);
