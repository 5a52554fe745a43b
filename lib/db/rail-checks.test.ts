import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestTenant } from '@/lib/testing/fixtures';

// The rails table's names are checked by PostgreSQL too (db/schema/columns.ts railChecks, migration 0036), and a
// row never lands on BSC or in USDT because its writer named nothing: the columns have no default.
describe('chain and token columns', () => {
  it('refuses an asset or network the rails table does not know, and a row that names none', async () => {
    const t = await createTestTenant();
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: { cause?: { message?: string }; message: string }) => e.cause?.message ?? e.message,
      );
    expect(
      await refusal(t.db.execute(sql`insert into balances (tenant_id, mode, currency, available) values (${t.tenant.id}, 'test', 'DOGE', 0)`)),
    ).toMatch(/balances_currency_ck/);
    expect(await refusal(t.db.execute(sql`insert into balances (tenant_id, mode, available) values (${t.tenant.id}, 'test', 0)`))).toMatch(
      /null value in column "currency"/,
    );
    expect(
      await refusal(
        t.db.execute(sql`insert into payment_links (id, tenant_id, mode, slug, name, chain, token, currency)
                         values ('plink_x', ${t.tenant.id}, 'test', 'x', 'x', 'AVALANCHE', 'USDT', 'USDT')`),
      ),
    ).toMatch(/payment_links_chain_ck/);
    // A link names what it is priced in: no USDT by default (migration 0039).
    expect(
      await refusal(
        t.db.execute(sql`insert into payment_links (id, tenant_id, mode, slug, name, chain, token)
                         values ('plink_y', ${t.tenant.id}, 'test', 'y', 'y', 'BSC', 'USDC')`),
      ),
    ).toMatch(/null value in column "currency"/);
  });
});
