import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkConformance } from './conformance';

/**
 * Calls the real /v1 route handlers in-process, routing paths the way the
 * App Router does (static segments before [param] before [...catchAll]).
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
interface RouteFile {
  file: string;
  segments: string[];
}

// Benches load this as an ES module (no __dirname); they run from the repository root.
const ROOT = typeof __dirname === 'string' ? path.resolve(__dirname, '../..') : process.cwd();
let routes: RouteFile[] | undefined;

function scan(dir: string, segments: string[], out: RouteFile[]) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) scan(full, [...segments, name], out);
    else if (name === 'route.ts') out.push({ file: full, segments });
  }
}

function rank(seg: string) {
  return seg.startsWith('[...') ? 2 : seg.startsWith('[') ? 1 : 0;
}

function match(route: RouteFile, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i]!;
    if (seg.startsWith('[...')) {
      if (i >= parts.length) return null;
      params[seg.slice(4, -1)] = parts.slice(i);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.startsWith('[')) params[seg.slice(1, -1)] = decodeURIComponent(part);
    else if (seg !== part) return null;
  }
  return route.segments.length === parts.length ? params : null;
}

function findRoute(pathname: string) {
  if (!routes) {
    routes = [];
    scan(path.join(ROOT, 'app'), [], routes);
    routes.sort((a, b) => {
      for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
        const d = rank(a.segments[i] ?? '') - rank(b.segments[i] ?? '');
        if (d !== 0) return d;
      }
      return b.segments.length - a.segments.length;
    });
  }
  const parts = pathname.split('/').filter(Boolean);
  for (const r of routes) {
    const params = match(r, parts);
    if (params) return { route: r, params };
  }
  return null;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

let callSeq = 0;
/**
 * Route modules by file: a dynamic import() per call goes through tsx's loader hooks on another
 * thread each time (about a quarter of an in-process bench's CPU), which `next start` never pays.
 */
const routeModules = new Map<string, Promise<Record<string, Handler>>>();

export async function call<T = any>(method: string, url: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const full = new URL(url, 'http://localhost');
  const found = findRoute(full.pathname);
  if (!found) throw new Error(`no route file for ${full.pathname}`);
  let loading = routeModules.get(found.route.file);
  if (!loading) routeModules.set(found.route.file, (loading = import(found.route.file) as Promise<Record<string, Handler>>));
  const mod = await loading;
  const handler = mod[method];
  if (!handler) throw new Error(`${found.route.file} exports no ${method}`);
  const headers = new Headers(opts.headers);
  if (opts.key) headers.set('authorization', `Bearer ${opts.key}`);
  // Each call comes from its own client address unless a test says otherwise, so suites that
  // send hundreds of bad keys on purpose do not trip the per-address failed-auth guard.
  if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', `10.${(callSeq >> 16) & 255}.${(callSeq >> 8) & 255}.${callSeq++ & 255}`);
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const res = await handler(new Request(full, { method, headers, body }), { params: Promise.resolve(found.params) });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  // Under vitest every answer is checked against the OpenAPI document (benches skip the cost).
  if (process.env.VITEST) checkConformance(method, full.pathname, res.status, res.headers, parsed);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
