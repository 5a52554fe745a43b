/**
 * Store order flood: one client address places orders on a merchant's public
 * store page as fast as it can (four loops), the way the page's server action
 * does (createOrder with the client address). Victim: the same store's real
 * buyers, each from its own address, timed placing an order alone and under
 * the flood. Production limits (10 orders a minute per address, 120 per store,
 * 500 unpaid per store). In-process, no port.
 */
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';
import { attacker, leadIn, p99, summary, victim } from './victim';

const ORDERS = Number(process.env.BENCH_ABUSE_ORDERS ?? 40);

export default async function run(): Promise<AbuseRow> {
  return withBenchDatabase(async () => {
    const { call } = await import('@/lib/testing/app');
    const { createTestTenant } = await import('@/lib/testing/fixtures');
    const { requireNetwork } = await import('@/lib/chain/network');
    const { createOrder } = await import('@/lib/storefront/create-order');
    const { ApiError } = await import('@/lib/api/errors');

    const b = await createTestTenant({ name: 'Victim store' });
    const product = await call('POST', '/v1/products', { key: b.test, body: { name: 'Mug', price: '9.90' } });
    if (product.status !== 201) throw new Error(`product: ${product.text}`);
    const owner = { tenantId: b.tenant.id, mode: 'test' as const };
    const net = requireNetwork('test', 'BSC', ['depositMnemonic']);
    const body = { items: [{ productId: product.body.id as string, quantity: 1 }], customerEmail: 'buyer@example.com' };
    const place = async (address: string) => {
      try {
        await createOrder(b.db, owner, net, body, { clientAddress: address });
        return null;
      } catch (e) {
        if (e instanceof ApiError) return e.code;
        throw e;
      }
    };
    const victimOp = (offset: number) => (i: number) => place(`198.51.100.${offset + i}`);

    await place('192.0.2.1'); // warm-up
    const alone = await victim(ORDERS, 100, victimOp(0));
    const flood = attacker(4, async () => (await place('203.0.113.66')) ?? 'placed');
    const first = await leadIn(() => place('198.51.100.250'));
    const under = await victim(ORDERS, 100, victimOp(100));
    const floodOutcomes = await flood.stop();
    return {
      scenario: 'store-order-flood',
      victimAloneP99Ms: p99(alone.latencies),
      victimAttackP99Ms: p99(under.latencies),
      victimRequests: alone.latencies.length + under.latencies.length,
      victimRefused: alone.refused + under.refused,
      note: `first order at the flood's start ${first} ms; flood from one address: ${summary(floodOutcomes)}${under.firstRefusal ? `; victim refused: ${under.firstRefusal}` : ''}`,
    };
  });
}
