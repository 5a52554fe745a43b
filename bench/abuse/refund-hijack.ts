/**
 * Refund hijack (issue 30 §1): an overpaid invoice of a tenant with auto-refund on. A dashboard member, a support
 * (console) user, an `invoices:read` key and an `orders:manage` key each try to send the excess to their own address
 * (the checkout's proposal with the invoice id and no or a guessed claim token, and every merchant path they have);
 * none may succeed, the claim token may appear in nothing they read, and the payer with the token from the create
 * response is refunded. The victim is that payer: refused = not refunded. In-process, one anvil (logic in
 * lib/testing/refund-hijack.ts, also run by lib/refunds/requests/refund-hijack.test.ts).
 */
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';

export default async function run(): Promise<AbuseRow> {
  return withBenchDatabase(async () => {
    const { setNetworkOverride } = await import('@/lib/chain/network');
    const { startAnvil } = await import('@/lib/testing/anvil');
    const { runRefundHijack, refundHijackViolations } = await import('@/lib/testing/refund-hijack');
    const chain = await startAnvil();
    const net = chain.network('test');
    setNetworkOverride('test', net);
    try {
      const r = await runRefundHijack(chain, net);
      const attacks = r.attempts.filter((a) => a.who !== 'payer');
      const figures = [
        ...attacks.map((a) => `${a.who}: ${a.path} → ${a.outcome}`),
        `refund requests to the attacker ${r.attackerRequests}, withdrawals to the attacker ${r.attackerWithdrawals}`,
        `payer with the token: ${r.payer.refunded ? 'refunded' : 'NOT refunded'} (${r.payer.ms} ms)`,
        `claim token readable in: ${r.leaks.join(', ') || 'nothing'}`,
      ];
      console.log(figures.join('\n'));
      return {
        scenario: 'refund-hijack',
        victimAloneP99Ms: r.payer.ms,
        victimAttackP99Ms: r.payer.ms,
        victimRequests: 1,
        victimRefused: r.payer.refunded ? 0 : 1,
        note: `${attacks.length} hijack attempts by member, support, invoices:read and orders:manage keys: ${attacks.filter((a) => a.succeeded).length} succeeded; payer refunded: ${r.payer.refunded}`,
        violations: refundHijackViolations(r),
      };
    } finally {
      setNetworkOverride('test', undefined, 'BSC');
      await chain.stop();
    }
  });
}
