import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { closeDb, getDb, type Db } from '@/lib/db';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';

// The session next-auth would read from the cookie, and the mode cookie (test mode, as the header's switch sets it).
const session = vi.hoisted(() => ({ sid: null as string | null }));
vi.mock('@/lib/auth/next-auth', () => ({ auth: async () => (session.sid ? { sid: session.sid } : null), signIn: vi.fn(), signOut: vi.fn() }));
vi.mock('next/headers', () => ({ cookies: async () => ({ get: (k: string) => (k === 'gw_mode' ? { value: 'test' } : undefined) }) }));
const { default: OverviewPage } = await import('@/app/dashboard/page');

/** Issue 35: the overview added a USDC balance into USDT's ("0.00 USDT" beside a USDC balance, or USDC counted as USDT). */
let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(() => closeDb());

describe('the overview shows each asset in its own unit', () => {
  it('a tenant holding 7.50 USDC and 3.00 USDT sees both lines, neither added into the other', async () => {
    const t = await createTestTenant();
    for (const [currency, amount] of [
      ['USDT', '3'],
      ['USDC', '7.5'],
    ] as const) {
      await db.transaction((tx) =>
        postLedgerEntry(tx, {
          tenantId: t.tenant.id,
          mode: 'test',
          amount,
          kind: 'test_credit',
          referenceType: 'test',
          referenceId: `overview-${currency}-${process.pid}-${Date.now()}`,
          currency,
        }),
      );
    }
    const u = await createUser(db, {
      email: `ov-${process.pid}-${Date.now()}@example.com`,
      password: 'a-long-enough-password',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const out = await verifyCredentials(db, { email: u.email, password: 'a-long-enough-password' }, { ip: '10.12.0.1' });
    if (!out.ok) throw new Error(out.reason);
    session.sid = out.sessionId;

    const html = renderToStaticMarkup(await OverviewPage({ searchParams: Promise.resolve({}) }));
    const card = /data-testid="overview-available">(.*?)<\/p>/s.exec(html)?.[1] ?? '';
    const text = card
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    expect(text).toBe('3.00 USDT 7.50 USDC');
  });
});
