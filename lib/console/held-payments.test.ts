import { randomBytes } from 'node:crypto';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { invoices, heldPayments } from '@/db/schema';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { closeDb, getDb, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { countHeldPayments, formatAge, listHeldPayments, HeldPaymentFilter } from './list-held-payments';

// The session next-auth would read from the cookie: the test sets whose it is (as in console.test.ts).
const session = vi.hoisted(() => ({ sid: null as string | null }));
vi.mock('@/lib/auth/next-auth', () => ({ auth: async () => (session.sid ? { sid: session.sid } : null), signIn: vi.fn(), signOut: vi.fn() }));
const { default: HeldPaymentsPage } = await import('@/app/console/held-payments/page');

const PASSWORD = 'a-long-enough-password';
let db: Db;
let n = 0;
const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

async function signedIn(role: 'support' | 'owner', tenantId?: string) {
  const u = await createUser(db, { email: `mm-${role}-${process.pid}-${Date.now()}-${++n}@example.com`, password: PASSWORD, role, tenantId });
  const out = await verifyCredentials(db, { email: u.email, password: PASSWORD }, { ip: `10.8.${n}.${n % 250}` });
  if (!out.ok) throw new Error(`sign-in refused: ${out.reason}`);
  return out.sessionId;
}

/** A BSC/USDT invoice of the tenant, inserted directly: listing needs no chain. */
async function invoiceOf(tenantId: string, mode: Mode) {
  const id = newId('invoice');
  await db.insert(invoices).values({
    id,
    tenantId,
    mode,
    chain: 'BSC',
    token: 'USDT',
    chainId: 1_337_998,
    depositAddress: hex(20),
    addressIndex: 2_000_000_000 + Math.floor(Math.random() * 1e9),
    amountExpected: '10',
    confirmationsRequired: 2,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return id;
}

/** A payment to the invoice's address on Polygon (network mismatch) or in USDC (token mismatch), recorded `minutesAgo`. */
async function heldPayment(
  tenantId: string,
  invoiceId: string,
  o: { mode?: Mode; status?: 'held' | 'credited'; minutesAgo?: number; token?: boolean } = {},
) {
  const id = newId('payment');
  await db.insert(heldPayments).values({
    id,
    mode: o.mode ?? 'test',
    chainId: o.token ? 1_337_998 : 80002,
    chain: o.token ? 'BSC' : 'POLYGON',
    token: o.token ? 'USDC' : 'USDT',
    tokenAddress: hex(20),
    txHash: hex(32),
    logIndex: 0,
    blockNumber: 100,
    blockHash: hex(32),
    blockTime: new Date(),
    fromAddress: hex(20),
    toAddress: hex(20),
    amount: '12.5',
    invoiceId,
    tenantId,
    mismatch: o.token ? 'token' : 'network',
    status: o.status ?? 'held',
    createdAt: new Date(Date.now() - (o.minutesAgo ?? 0) * 60_000),
  });
  return id;
}

const ids = (r: { rows: { id: string }[] }) => r.rows.map((x) => x.id);
const list = (f: Record<string, string>) => listHeldPayments(db, HeldPaymentFilter.parse(f));

beforeAll(async () => {
  db = await getDb();
});
afterEach(() => {
  session.sid = null;
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await closeDb();
});

describe('console held payments', () => {
  it("shows support staff another tenant's held payment, with the invoice's network and token beside the ones used", async () => {
    const t = await createTestTenant();
    const inv = await invoiceOf(t.tenant.id, 'test');
    const held = await heldPayment(t.tenant.id, inv);
    const before = await countHeldPayments(db);

    const all = await list({ limit: '200' });
    expect(all.rows.find((r) => r.id === held)).toMatchObject({
      tenantId: t.tenant.id,
      tenantName: t.tenant.name,
      invoiceId: inv,
      chain: 'POLYGON',
      invoiceChain: 'BSC',
      token: 'USDT',
      invoiceToken: 'USDT',
      amount: expect.stringMatching(/^12\.50*$/),
      status: 'held',
    });
    await heldPayment(t.tenant.id, inv, { mode: 'live' });
    const after = await countHeldPayments(db);
    // Other test files may add rows at the same time: at least ours, per mode.
    expect(after.live).toBeGreaterThanOrEqual(before.live + 1);
    expect(after.total).toBe(after.live + after.test);
  });

  it('filters by status (held by default, any known status, all), mode and tenant; newest first', async () => {
    const t = await createTestTenant();
    const inv = await invoiceOf(t.tenant.id, 'test');
    const old = await heldPayment(t.tenant.id, inv, { minutesAgo: 90 });
    const fresh = await heldPayment(t.tenant.id, inv, { token: true, minutesAgo: 1 });
    const credited = await heldPayment(t.tenant.id, inv, { status: 'credited', minutesAgo: 5 });
    const live = await heldPayment(t.tenant.id, await invoiceOf(t.tenant.id, 'live'), { mode: 'live', minutesAgo: 3 });
    const tenantId = t.tenant.id;

    expect(ids(await list({ tenantId }))).toEqual([fresh, live, old]);
    expect(ids(await list({ tenantId, status: '', mode: '' }))).toEqual([fresh, live, old]);
    expect(ids(await list({ tenantId, status: 'credited' }))).toEqual([credited]);
    expect(ids(await list({ tenantId, status: 'all' }))).toEqual([fresh, live, credited, old]);
    expect(ids(await list({ tenantId, status: 'all', mode: 'live' }))).toEqual([live]);
    expect(ids(await list({ tenantId, mode: 'test' }))).toEqual([fresh, old]);
    // The statuses a held payment goes through; anything else falls back to held.
    expect(ids(await list({ tenantId, status: 'refunded' }))).toEqual([]);
    expect(HeldPaymentFilter.parse({ status: 'disputed' }).status).toBe('held');
    expect(HeldPaymentFilter.parse({ status: "held'; --", mode: 'prod', limit: 'x' })).toMatchObject({ status: 'held', mode: 'all', limit: 100 });
    expect(ids(await list({ tenantId: 'ten_nobody' }))).toEqual([]);
  });

  it('is capped at the limit and says so', async () => {
    const t = await createTestTenant();
    const inv = await invoiceOf(t.tenant.id, 'test');
    const [a, b, c] = [
      await heldPayment(t.tenant.id, inv, { minutesAgo: 3 }),
      await heldPayment(t.tenant.id, inv, { minutesAgo: 2 }),
      await heldPayment(t.tenant.id, inv, { minutesAgo: 1 }),
    ];
    expect(await list({ tenantId: t.tenant.id, limit: '2' })).toMatchObject({ capped: true, rows: [{ id: c }, { id: b }] });
    expect(await list({ tenantId: t.tenant.id, limit: '3' })).toMatchObject({ capped: false });
    expect(ids(await list({ tenantId: t.tenant.id, limit: '3' }))).toEqual([c, b, a]);
    expect(HeldPaymentFilter.parse({ limit: '100000' }).limit).toBe(100);
  });

  it('the page is for support staff only: merchants get a 403, signed-out visitors go to sign-in', async () => {
    // next.config.ts enables authInterrupts; Next sets this for forbidden() at build time.
    vi.stubEnv('__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS', 'true');
    const t = await createTestTenant();
    const inv = await invoiceOf(t.tenant.id, 'test');
    const held = await heldPayment(t.tenant.id, inv);
    const searchParams = Promise.resolve({ tenantId: t.tenant.id });

    session.sid = await signedIn('owner', t.tenant.id);
    await expect(HeldPaymentsPage({ searchParams })).rejects.toMatchObject({ digest: 'NEXT_HTTP_ERROR_FALLBACK;403' });
    session.sid = null;
    await expect(HeldPaymentsPage({ searchParams })).rejects.toMatchObject({ digest: expect.stringMatching(/^NEXT_REDIRECT;.*\/sign-in/) });

    session.sid = await signedIn('support');
    const html = renderToStaticMarkup(await HeldPaymentsPage({ searchParams }));
    expect(html).toContain(`data-held-payment="${held}"`);
    expect(html).toContain(`href="/console/tenants/${t.tenant.id}"`);
    // Polygon Amoy (80002) has an explorer; the hash links to it.
    expect(html).toMatch(/href="https:\/\/amoy\.polygonscan\.com\/tx\/0x[0-9a-f]{64}"/);
    // Read-only: no buttons but the filter's.
    expect(html.match(/<button/g)).toHaveLength(1);
  });

  it('formats ages coarsely', () => {
    const now = new Date('2026-01-10T12:00:00Z');
    const ago = (min: number) => formatAge(new Date(now.getTime() - min * 60_000), now);
    expect([ago(0), ago(59), ago(60), ago(47 * 60), ago(48 * 60), ago(-5)]).toEqual(['0 min', '59 min', '1 h', '47 h', '2 d', '0 min']);
  });
});
