import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import { getNetworks } from '@/lib/chain/network';
import { ALL_RAILS, CHAINS, CHAIN_SPECS, OFFERED_CHAINS, parseRails } from '@/lib/config/rails';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';

/**
 * Solana's rails are offered (issue 49, once the rail matrix covered them): RAILS takes them, the lists of rails and
 * the API's chain values have them, and a gateway that does not enable them answers a tenant asking for one as for any
 * rail it does not enable (400, nothing written), never as for an unknown chain.
 */
let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant();
});

const invoiceCount = async () => Number((await t.db.select({ n: count() }).from(invoices).where(eq(invoices.tenantId, t.tenant.id)))[0]!.n);

describe('the Solana rails, offered', () => {
  it('are taken by RAILS and in the lists of rails and networks; no network is withheld', () => {
    expect(parseRails('SOLANA:USDC,solana:usdt')).toEqual(
      expect.arrayContaining([
        { chain: 'SOLANA', token: 'USDC' },
        { chain: 'SOLANA', token: 'USDT' },
      ]),
    );
    expect(
      ALL_RAILS.filter((r) => r.chain === 'SOLANA')
        .map((r) => r.token)
        .sort(),
    ).toEqual(['USDC', 'USDT']);
    expect(OFFERED_CHAINS).toEqual(CHAINS);
    expect(CHAINS.filter((c) => CHAIN_SPECS[c].notOffered)).toEqual([]);
  });

  it.each(['USDC', 'USDT'])(
    'a gateway without RAILS=SOLANA:%s refuses its invoice as a rail it does not enable: 400 on chain, nothing written',
    async (token) => {
      // The test environment enables no Solana rail (no override in this file).
      for (const mode of ['test', 'live'] as const) expect(getNetworks(mode).map((n) => n.chain)).not.toContain('SOLANA');
      const before = await invoiceCount();
      for (const key of [t.test, t.live]) {
        const res = await call('POST', '/v1/invoices', { key, body: { amount: '10', chain: 'SOLANA', token } });
        expect(res.status, res.text).toBe(400);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain('chain');
        expect(res.body.message).toContain(`SOLANA ${token} is not enabled on this gateway`);
      }
      expect(await invoiceCount()).toBe(before);
    },
  );

  it('is a chain value in the OpenAPI document', async () => {
    const res = await call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('"SOLANA"');
  });
});
