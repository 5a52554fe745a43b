import { expect, test } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { TronWeb, utils } from 'tronweb';
import { collectionPulls, emails, gasSpend, subscriptions } from '@/db/schema';
import { closeDb, getDb } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { runBilling } from '@/lib/subscriptions/run-billing';
import { runCollection } from '@/lib/subscriptions/collect/run-collection';
import { APP_PORTS } from '../playwright.config';
import { shot } from './support/dashboard';
import { signedUpMerchant } from './support/merchant';
import { payOnTron } from './support/pay-rail';
import { chainClock } from './support/payer-wallet';
import { TRON_COLLECTOR, TRON_KEYS, TRON_PORT, stackEnv } from './support/stack-env';

/*
 * Issue 48 on TRON, end to end: the collector the stack deployed on the stand-in (TEST_TRON_COLLECTOR_ADDRESS), the
 * checkout's "Pay now and collect automatically" on a TRON rail signed as TronLink would (TronWeb, from this process,
 * with the data the page shows), the first invoice paid, and the next period pulled once by the collection job.
 * The next period starts 28 days ahead on chain: the stand-in's clock jumps there (POST /tron/warp of the stack) and is
 * rewound to the wall clock afterwards (tronClock), so later TRON payments and repeats of this test are on time.
 */
const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const TRON = `http://127.0.0.1:${TRON_PORT}`;
const USDT = 1_000_000n;

test.afterAll(async () => {
  await closeDb();
});

/** The link the period's invoice e-mail carries (its claim token), pointed at this run's app. */
async function invoiceEmailLink(invoiceId: string) {
  const db = await getDb();
  const mail = async () =>
    (
      await db
        .select()
        .from(emails)
        .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, invoiceId)))
    )[0];
  await expect.poll(async () => Boolean(await mail())).toBe(true);
  return (await mail())!.data.payUrl!.replace(/^https?:\/\/[^/]+/, BASE);
}

/** Waits until the transaction is in a block (the e2e stand-in mines every 3 s). */
async function inBlock(txId: string) {
  const tw = new TronWeb({ fullHost: TRON });
  await expect
    .poll(async () => ((await tw.trx.getUnconfirmedTransactionInfo(txId)) as { blockNumber?: number }).blockNumber ?? 0, { timeout: 30_000 })
    .toBeGreaterThan(0);
}

/** Signs and sends a contract call as `who` (TronWeb, as TronLink does); resolves once it is in a block, successful. */
async function send(who: { privateKey: string; address: string }, contract: string, fn: string, params: { type: string; value: unknown }[]) {
  const tw = new TronWeb({ fullHost: TRON, privateKey: who.privateKey });
  const { transaction } = await tw.transactionBuilder.triggerSmartContract(contract, fn, { feeLimit: 200_000_000 }, params, who.address);
  const res = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
  expect(res.result, JSON.stringify(res)).toBe(true);
  await expect
    .poll(async () => ((await tw.trx.getUnconfirmedTransactionInfo(transaction.txID)) as { receipt?: { result?: string } }).receipt?.result, {
      timeout: 30_000,
    })
    .toBe('SUCCESS');
}

test('a TRON payer turns on automatic collection at the checkout (signed as TronLink), pays, and the next period is pulled once', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const m = await signedUpMerchant(page, request, 'Tron Gym', 'correct-horse-battery');
  const plan = await m.post('/v1/plans', { name: 'Gym monthly', amount: '10.00', interval: 'month' });
  const sub = await m.post('/v1/subscriptions', { planId: plan.id, customerEmail: `tpat-${Date.now()}@example.com`, chain: 'TRON' });
  const shown = await m.json(`/v1/subscriptions/${sub.id}/collection`);
  // The collector the stack deployed where the env said (T… as the API writes TRON addresses).
  expect(shown).toMatchObject({ state: 'not_set_up', chain: 'TRON', collectorAddress: TRON_COLLECTOR.address });

  const payerPage = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await payerPage.goto(await invoiceEmailLink(sub.latestInvoiceId));
  await payerPage.getByRole('button', { name: 'Pay now and collect automatically' }).click();
  const terms = payerPage.getByTestId('autocollect-terms');
  await expect(terms).toContainText("You allow Tron Gym to collect at most 10.00 USDT every 28 days into this gateway's addresses");
  await expect(terms).toContainText('(USDT (TRC-20) on TRON)');
  await expect(terms).toContainText('You can stop it any time by revoking the allowance or in the customer portal.');
  // No EIP-681 link on TRON: the call TronLink signs, in T… form.
  await expect(payerPage.getByText('Payment link (EIP-681)')).toHaveCount(0);
  await expect(payerPage.getByTestId('autocollect-authorize')).toContainText('TronLink');
  expect(await payerPage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await shot(payerPage, 'subscription-autocollect-tron-checkout-360');

  // What the page says to sign, as TronLink would read it: the same as GET …/collection.
  const approve = payerPage.getByTestId('autocollect-approve');
  const authorize = payerPage.getByTestId('autocollect-authorize');
  const token = (await approve.getAttribute('data-token'))!;
  const spender = (await approve.getAttribute('data-spender'))!;
  const amount = (await approve.getAttribute('data-amount'))!;
  const collector = (await authorize.getAttribute('data-collector'))!;
  const [id, authToken, cap, period, start] = JSON.parse((await authorize.getAttribute('data-args'))!) as [string, string, string, number, string];
  expect({ token, spender, collector, id, authToken, cap, period, start }).toEqual({
    token: shown.tokenAddress,
    spender: shown.approve.spender,
    collector: shown.collectorAddress,
    id: shown.authorize.subscriptionId,
    authToken: shown.authorize.token,
    cap: shown.authorize.maxPerPeriod,
    period: shown.authorize.periodSeconds,
    start: shown.authorize.start,
  });
  expect(spender).toMatch(/^T/);
  expect(BigInt(amount)).toBe(BigInt(shown.approve.amountPerPeriod) * 12n);

  // The payer's TRON wallet: TRX for its two calls' energy, 100 USDT; it signs exactly what was shown.
  const acc = utils.accounts.generateAccount();
  const payer = { privateKey: acc.privateKey, address: acc.address.base58 };
  const faucet = new TronWeb({ fullHost: TRON, privateKey: TRON_KEYS.faucet.slice(2) });
  const trx = await faucet.trx.sendTransaction(payer.address, 1_000_000_000);
  expect(trx.result).toBe(true);
  await inBlock(trx.transaction.txID);
  await inBlock(await payOnTron(payer.address, '100'));
  await send(payer, token, 'approve(address,uint256)', [
    { type: 'address', value: spender },
    { type: 'uint256', value: amount },
  ]);
  await send(payer, collector, 'authorize(bytes32,address,uint256,uint256,uint256)', [
    { type: 'bytes32', value: id },
    { type: 'address', value: authToken },
    { type: 'uint256', value: cap },
    { type: 'uint256', value: period },
    { type: 'uint256', value: start },
  ]);
  await payerPage.getByLabel('The wallet address you signed with').fill(payer.address);
  await payerPage.getByRole('button', { name: 'Turn on automatic collection' }).click();
  await expect(payerPage.getByTestId('autocollect-on')).toContainText(payer.address);
  expect(await m.json(`/v1/subscriptions/${sub.id}/collection`)).toMatchObject({
    state: 'authorized',
    payer: payer.address,
    allowance: '120',
    balance: '100',
  });

  // This period is paid now, by transfer (from the stack's faucet), and confirmed by the TRON watcher.
  const first = await m.json(`/v1/invoices/${sub.latestInvoiceId}`);
  await payOnTron(first.depositAddress, first.amountExpected);
  await expect.poll(async () => (await m.json(`/v1/invoices/${sub.latestInvoiceId}`)).status, { timeout: 60_000 }).toBe('CONFIRMED');

  // The next period, billed and collected by the jobs (run here at its time); the chain's clock at its start.
  const next = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
  const clock = chainClock('TRON');
  try {
    await clock.moveTo(next);
    const tw = new TronWeb({ fullHost: TRON });
    Object.assign(process.env, stackEnv());
    resetEnvCache();
    const db = await getDb();
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    await runBilling(db, { now: next, tenantId: row!.tenantId });
    const pullOf = async () => db.select().from(collectionPulls).where(eq(collectionPulls.subscriptionId, sub.id));
    // Recorded and broadcast, then followed until solidified (2 blocks on the e2e stand-in): each run one step.
    await expect
      .poll(
        async () => {
          await runCollection(db, { now: next, tenantId: row!.tenantId });
          const rows = await pullOf();
          // A reverted pull says why (the stand-in's receipt and revert data).
          if (rows[0]?.status === 'failed')
            console.log(`[tron autocollect] failed pull ${JSON.stringify(await tw.trx.getUnconfirmedTransactionInfo(rows[0].txHash!))}`);
          return rows.map((p) => p.status);
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toEqual(['confirmed']);
    const [pull] = await pullOf();
    const usdt = await new TronWeb({ fullHost: TRON, privateKey: payer.privateKey }).contract().at(token);
    expect(BigInt(String(await usdt.balanceOf(payer.address).call()))).toBe(90n * USDT);
    expect(BigInt(String(await usdt.balanceOf(TronWeb.address.fromHex(pull!.depositAddress)).call()))).toBe(10n * USDT);
    // A second run in the same period pulls nothing more.
    expect(await runCollection(db, { now: next, tenantId: row!.tenantId })).toMatchObject({ pulled: 0, in_flight: 0 });
    expect(await pullOf()).toHaveLength(1);
    const spent = await db.select().from(gasSpend).where(eq(gasSpend.referenceId, pull!.id));
    console.log(`[tron autocollect] ${JSON.stringify(spent.map((s) => ({ kind: s.kind, energy: s.gasUsed, burnedSun: s.costWei })))}`);
    expect(spent.map((s) => s.kind).sort()).toEqual(['collector_allow', 'subscription_pull']);
  } finally {
    await clock.restore();
  }
});
