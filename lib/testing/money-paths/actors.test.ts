import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ACTORS, MONEY_PATHS, type Actor, type Grant, type MoneyPathId } from '@/lib/money-paths';
import type { AnvilChain } from '@/lib/testing/anvil';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { withTestChain } from '@/lib/testing/test-chain';
import { credOf, triedEntries, type Subject } from './entries';
import { startUsdcChain, stopUsdcChain } from './permit-setup';
import { buildWorld, type World } from './world';
import { snapshot, tryAllowed } from './controls';

// The session next-auth would read from the dashboard's cookie (the row says whose), and no mode cookie (test mode).
vi.mock('@/lib/auth/next-auth', async () => {
  const { currentSession } = await import('./session');
  return { auth: async () => (currentSession.sid ? { sid: currentSession.sid } : null), signIn: vi.fn(), signOut: vi.fn() };
});
vi.mock('next/headers', () => ({ cookies: async () => ({ get: () => undefined }), headers: async () => new Headers() }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
const { RUNNERS } = await import('./paths');

/*
 * Issue 42 §1, run: every actor of lib/money-paths.ts on every money path, through the functions the dashboard's
 * actions, the /v1 routes, the checkout, the claim page and the policy's job call, on one tenant with settled money
 * and every control on. Refused where declared, on every entry the actor could present its credential to, with
 * nothing written; allowed with every declared control applied (step-up, allow-list, 24 h limit, approval threshold,
 * delay, minimum, screening, sender only). A path or an actor without its runner fails here
 * (lib/money-paths.test.ts checks the declaration itself and the documentation).
 */
let w: World;
let ex: Awaited<ReturnType<typeof startTestExchange>>;
withTestChain(async (chain: AnvilChain) => {
  await chain.mint(chain.addresses.hot, '100000');
  // The exchange's rate-limit weight is not the subject: enough for every row's orders.
  ex = await startTestExchange(chain, { config: { weightLimit: 5000 } });
  w = await buildWorld(chain, chain.network('test'));
  // The permit set-up's rail: USDC with EIP-2612, on a chain of its own.
  await startUsdcChain();
});
afterAll(async () => {
  await ex?.stop();
  await stopUsdcChain();
});

const allowed = (g: Grant): g is Extract<Grant, { controls: unknown }> => 'controls' in g;
const PATH_IDS = Object.keys(MONEY_PATHS) as MoneyPathId[];

describe('the runners', () => {
  it('run every declared path, and every actor has an entry to try', () => {
    expect(Object.keys(RUNNERS).sort()).toEqual([...PATH_IDS].sort());
    for (const a of ACTORS) expect(triedEntries(a).length, a).toBeGreaterThan(0);
  });

  it('no dashboard action starts an automatic refund (only the checkout, the claim page and the job do)', () => {
    const files = (readdirSync('app/dashboard', { recursive: true }) as string[]).filter((f) => /actions\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(readFileSync(path.join('app/dashboard', f), 'utf8'), f).not.toMatch(/autoRefund\(/);
  });
});

describe.each(PATH_IDS)('%s', (id) => {
  const r = RUNNERS[id];
  let shared: Subject | undefined;

  it.each(ACTORS.map((a) => [a] as [Actor]))('%s', async (actor) => {
    const grant = MONEY_PATHS[id].actors[actor];
    if (allowed(grant)) return tryAllowed(w, id, r, actor, grant.controls);
    const entries = triedEntries(actor).filter((e) => r.entries[e]);
    if (entries.length === 0) {
      // No way in at all: a key has no /v1 operation on the path; a dashboard user, no page that starts it.
      if (actor.startsWith('api_key:')) expect(MONEY_PATHS[id].operations).toEqual([]);
      else expect(MONEY_PATHS[id].entry.startsWith('dashboard'), `${id}: ${actor} has no entry`).toBe(false);
      return;
    }
    // Every advantage: a valid authenticator code, the path's own amount and a listed destination.
    const v = { amount: r.amount, destination: r.destination(w), totpCode: w.code() };
    for (const e of entries) {
      // The job gets a subject of its own, made after earlier rows' requests are declined, whose address is not
      // listed (one the policy may pay is the auto_refund path's): it must leave it alone.
      if (e === 'job') await w.quiet();
      const s = e === 'job' ? await r.subject(w, { ...v, ...r.unlisted(w)[0] }) : (shared ??= await r.subject(w, v));
      const before = await snapshot(w, r);
      const t = await r.entries[e]!(w, s, credOf(actor, e, w, s), v);
      expect(t.ok, `${id} · ${actor} on ${e}: ${JSON.stringify(t)}`).toBe(false);
      expect(await snapshot(w, r), `${id} · ${actor} on ${e}: a refusal wrote something`).toEqual(before);
    }
  });
});
