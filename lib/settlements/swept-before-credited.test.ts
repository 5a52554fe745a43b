import { sql } from 'drizzle-orm';
import { parseAbiItem, parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { rowsOf, type Db } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { balanceOf, createInvoice, invoiceDetail, ledgerSums, sendFromCustomer } from '@/lib/testing/two-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Issue 42 §2, credited but never swept. On Ethereum's default costs (sweep minimum 25.00) every USDC payment of
 * this file is under the minimum, and the hot wallet starts empty (no operator funding). Before, a payment below
 * the minimum was credited and left on its single-use deposit address: a send-back of a held 10.10 USDC and a
 * merchant's withdrawal were accepted, debited, and then waited for ever ("Hot wallet holds 0 USDC, needs 7.10;
 * retrying"). The rule now (docs/withdrawals.md, "Credited once swept"): money is credited when it reaches the hot
 * wallet; an address below the minimum is swept at once at the network's sweep fee, taken from what it moves; one
 * holding less than that fee is not swept and not credited. So everything the API accepts completes, and the hot
 * wallet pays out only what was swept into it.
 */
let chain: AnvilChain;
let net: Network;
withTestChain(
  (c) => {
    chain = c;
    net = c.network('test', { ...NETWORK_COST_DEFAULTS.ETHEREUM, confirmations: 2 });
    setNetworkOverride('test', net, 'ETHEREUM');
  },
  {
    chain: 'ETHEREUM',
    tokens: [
      { asset: 'USDT', decimals: 6 },
      { asset: 'USDC', decimals: 6 },
    ],
  },
);

const costs = NETWORK_COST_DEFAULTS.ETHEREUM;
const retry = { maxAttempts: 2, backoffMs: 0 };
const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

async function tenant() {
  const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
  const jobs = () => runInvoiceJobs(t.db, net, { retry });
  await jobs();
  return { ...t, jobs };
}

/** Rounds of jobs, mining and the lane: bounded, so "waits for ever" is a failure here, not a hang. */
async function run(t: Awaited<ReturnType<typeof tenant>>, rounds = 8) {
  for (let i = 0; i < rounds; i++) {
    await chain.mine(3);
    await t.jobs();
    await processWithdrawals(t.db, net as LaneNetwork);
  }
}

/** Per token, from the chain's own logs: what entered the hot wallet and what left it. */
async function hotWalletFlows(asset: 'USDT' | 'USDC') {
  const hot = chain.addresses.hot;
  const address = chain.tokenOf(asset);
  const into = await chain.client.getLogs({ address, event: transfer, args: { to: hot }, fromBlock: 0n });
  const out = await chain.client.getLogs({ address, event: transfer, args: { from: hot }, fromBlock: 0n });
  const sum = (logs: typeof into) => logs.reduce((s, l) => s + l.args.value!, 0n);
  return { received: sum(into), paid: sum(out) };
}

/** What withdrawals on this network accepted (debited and not failed) must pay out, per token. */
async function accepted(db: Db, token: string) {
  const [row] = rowsOf<{ total: string; open: number }>(
    await db.execute(sql`
      select coalesce(sum(net_amount), 0)::text as total,
             count(*) filter (where status in ('PENDING', 'PROCESSING'))::int as open
        from withdrawals where chain_id = ${chain.chainId} and token = ${token} and status <> 'FAILED'`),
  );
  return { total: parseUnits(new Decimal(row!.total).toFixed(6), 6), open: row!.open };
}

describe('credited only once swept (every payment below the sweep minimum)', () => {
  it('a held 10.10 USDC sent back completes, paid from what its own sweep brought in, less the sweep and network fees', async () => {
    const t = await tenant();
    const inv = await createInvoice(t.test, { amount: '30.00', chain: 'ETHEREUM', token: 'USDT' });
    const sender = await sendFromCustomer(chain, 'USDC', inv.depositAddress, '10.10');
    await run(t, 2);
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(held).toMatchObject({ token: 'USDC', amount: '10.10', status: 'held' });

    const res = await call('POST', `/v1/invoices/${inv.id}/held-payments/${held.id}/refund`, { key: t.test, body: {} });
    expect(res.status, res.text).toBe(200);
    await run(t);

    const after = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(after.status, JSON.stringify(after)).toBe('refunded');
    // 10.10 less the sweep fee (4.00: the address held less than 25.00) and the network fee (3.00, the payer's by default).
    const back = new Decimal('10.10').minus(costs.sweepFee).minus(costs.networkFee);
    expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(sender), chain.tokenOf('USDC'))).toBe(parseUnits(back.toFixed(2), 6));
    const flows = await hotWalletFlows('USDC');
    expect(flows.paid <= flows.received, `paid ${flows.paid} of ${flows.received} received`).toBe(true);
  });

  it('a held payment whose sweep and network fee leave less than the minimum refund is refused up front, nothing written', async () => {
    const t = await tenant();
    const inv = await createInvoice(t.test, { amount: '30.00', chain: 'ETHEREUM', token: 'USDT' });
    await sendFromCustomer(chain, 'USDC', inv.depositAddress, '8.50');
    await run(t, 2);
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    const res = await call('POST', `/v1/invoices/${inv.id}/held-payments/${held.id}/refund`, { key: t.test, body: {} });
    expect([res.status, res.body.code]).toEqual([409, 'invalid_state']);
    expect(res.body.message).toBe(
      '8.50 USDC is too little to send back on Ethereum: its sweep costs 4.00 USDC (under the sweep minimum of 25.00 USDC), ' +
        'the minimum is 5.00 USDC, the network fee 3.00 USDC. Credit it instead.',
    );
    expect((await invoiceDetail(t.test, inv.id)).heldPayments[0]).toMatchObject({ status: 'held', withdrawalId: null });
  });

  it("a merchant's USDC withdrawal on Ethereum is paid from swept money; dust worth less than its sweep is never credited", async () => {
    const t = await tenant();
    // Two payments under the minimum: 20.00 (swept at once, at the sweep fee) and 3.00 (less than the fee: left, not credited).
    const swept = await createInvoice(t.test, { amount: '20.00', chain: 'ETHEREUM', token: 'USDC' });
    const dust = await createInvoice(t.test, { amount: '3.00', chain: 'ETHEREUM', token: 'USDC' });
    await sendFromCustomer(chain, 'USDC', swept.depositAddress, '20.00');
    await sendFromCustomer(chain, 'USDC', dust.depositAddress, '3.00');
    await run(t, 3);
    // 20.00 less the 1 % invoice fee and the 4.00 sweep fee; the 3.00 stays on its address, not in the balance.
    expect((await balanceOf(t.test, 'USDC')).available).toBe('15.80');
    expect(await invoiceDetail(t.test, dust.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '0.00', amountUncollected: '3.00' });
    expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(dust.depositAddress), chain.tokenOf('USDC'))).toBe(parseUnits('3', 6));

    // Everything the balance holds is withdrawable and paid: Max on Ethereum, nothing left waiting.
    const max = await call('GET', '/v1/withdrawals/max?currency=USDC&chain=ETHEREUM', { key: t.test });
    const w = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: max.body.maxAmount, destinationAddress: freshAddress(), chain: 'ETHEREUM', token: 'USDC' },
    });
    expect(w.status, w.text).toBe(201);
    await run(t, 4);
    expect((await call('GET', `/v1/withdrawals/${w.body.id}`, { key: t.test })).body).toMatchObject({ status: 'COMPLETED' });
    for (const s of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(s.ledger).eq(s.balance), s.currency).toBe(true);
  });

  it('per token, the hot wallet never pays out more than was swept into it (no operator funding here), and nothing accepted waits', async () => {
    const { db } = await createTestTenant();
    for (const token of ['USDT', 'USDC'] as const) {
      const flows = await hotWalletFlows(token);
      const owed = await accepted(db, token);
      expect(owed.open, `${token}: withdrawals accepted and still waiting`).toBe(0);
      expect(flows.paid <= flows.received, `${token}: paid ${flows.paid}, received ${flows.received}`).toBe(true);
      expect(owed.total <= flows.received, `${token}: accepted ${owed.total}, received ${flows.received}`).toBe(true);
    }
  });
});
