import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heldPayments } from '@/db/schema';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { closeDb, getDb, type Db } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { RESOURCE_FACTORIES } from '@/lib/testing/resources';
import { createUser } from '@/lib/users/create-user';
import { can } from './permissions';

// The session next-auth would read from the cookie, and the header's mode cookie (test mode): the test sets whose session it is.
const session = vi.hoisted(() => ({ sid: null as string | null }));
vi.mock('@/lib/auth/next-auth', () => ({ auth: async () => (session.sid ? { sid: session.sid } : null), signIn: vi.fn(), signOut: vi.fn() }));
vi.mock('next/headers', () => ({ cookies: async () => ({ get: () => undefined }) }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
const { creditHeldPaymentAction } = await import('@/app/dashboard/invoices/[id]/refund-actions');

/*
 * Crediting a held payment decides where the money goes (the merchant's balance instead of back to
 * the payer), so it is the owner's call, like sending it back: a member cannot credit a payment the
 * owner may want to refund.
 */
const PASSWORD = 'a-long-enough-password';
let db: Db;
let n = 0;
beforeAll(async () => {
  db = await getDb();
});
afterAll(() => closeDb());

async function signIn(role: 'owner' | 'member', tenantId: string) {
  const u = await createUser(db, { email: `held-${role}-${process.pid}-${Date.now()}-${++n}@example.com`, password: PASSWORD, role, tenantId });
  const out = await verifyCredentials(db, { email: u.email, password: PASSWORD }, { ip: `10.11.${n}.${n % 250}` });
  if (!out.ok) throw new Error(`sign-in refused: ${out.reason}`);
  session.sid = out.sessionId;
}

describe('who may credit a held payment in the dashboard', () => {
  it('a member is refused and the payment stays held; the owner credits it', async () => {
    const t = await createTestTenant();
    const paymentId = await RESOURCE_FACTORIES.payment!(db, { tenantId: t.tenant.id, mode: 'test' });
    const [held] = await db.select().from(heldPayments).where(eq(heldPayments.id, paymentId));
    expect(can('member', 'held-payments:resolve')).toBe(false);

    await signIn('member', t.tenant.id);
    const refused = await creditHeldPaymentAction(held!.invoiceId, paymentId);
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await db.select().from(heldPayments).where(eq(heldPayments.id, paymentId)))[0]!.status).toBe('held');

    await signIn('owner', t.tenant.id);
    const done = await creditHeldPaymentAction(held!.invoiceId, paymentId);
    expect(done).toMatchObject({ ok: true, data: { id: paymentId, status: 'credited' } });
  });
});
