import { expect, test, type Page } from '@playwright/test';
import { TronWeb } from 'tronweb';
import { closeDb } from '@/lib/db';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';
import { TRON_KEYS, TRON_PORT, TRON_USDT_ADDRESS } from './support/stack-env';

const PASSWORD = 'correct-horse-battery';
const PAID = /^(DETECTED|CONFIRMED|PROCESSING_PAYOUT|PAID_OUT)$/;
const T_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

test.afterAll(async () => {
  await closeDb();
});

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${what}: page scrolls sideways at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

/**
 * USDT (TRC-20) sent from the stack's TRON faucet (the stand-in's `other` account) as a payer's wallet would:
 * a TronWeb-built TriggerSmartContract, signed and broadcast to the stand-in. Resolves with the txID.
 */
async function payOnTron(to: string, amount: string): Promise<string> {
  const tw = new TronWeb({ fullHost: `http://127.0.0.1:${TRON_PORT}`, privateKey: TRON_KEYS.faucet.slice(2) });
  const from = tw.address.fromPrivateKey(TRON_KEYS.faucet.slice(2)) as string;
  const usdt = tw.address.fromHex(`41${TRON_USDT_ADDRESS.slice(2)}`);
  const units = (BigInt(amount.replace('.', '')) * 10n ** 6n) / 100n; // a 2-decimal amount in 6-decimal units
  const { transaction } = await tw.transactionBuilder.triggerSmartContract(
    usdt,
    'transfer(address,uint256)',
    { feeLimit: 100_000_000 },
    [
      { type: 'address', value: to },
      { type: 'uint256', value: units.toString() },
    ],
    from,
  );
  const res = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
  expect(res.result, JSON.stringify(res)).toBe(true);
  return res.transaction.txID;
}

test('TRON checkout at 360 px: a TRON:USDT invoice shows its T… address, QR and TRC-20 rail, and is paid on the stand-in', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpViaUi(page, { business: 'Tron Tea House', email: uniqueEmail('tron'), password: PASSWORD });

  // The merchant picks USDT on TRON in the create-invoice form.
  await page.goto('/dashboard/invoices');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await page.getByLabel('Paid in').selectOption('TRON:USDT');
  await page.getByLabel('Amount', { exact: true }).fill('12.34');
  await page.getByRole('button', { name: 'Create invoice' }).last().click();
  await expect(page).toHaveURL(/\/dashboard\/invoices\/inv_/);
  await expect(page.getByTestId('deposit-rail')).toHaveText('USDT (TRC-20) on TRON only.');
  const checkoutPath = (await page.getByTestId('checkout-link').textContent())!.trim();
  await expectNoSidewaysScroll(page, 'invoice page');
  await shot(page, 'tron-invoice-360');

  // The payer's checkout, on a phone.
  const payer = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await payer.goto(checkoutPath);
  await expect(payer.getByTestId('checkout-status')).toHaveAttribute('data-status', 'PENDING');
  await expect(payer.getByTestId('rail')).toHaveText('USDT (TRC-20) on TRON');
  await expect(payer.getByTestId('amount')).toContainText('12.34');
  const qr = payer.getByTestId('qr');
  await expect(qr.locator('svg')).toBeVisible();
  // No payment URI TRON wallets share: the QR holds the bare T… address, which is also the copyable one.
  const address = (await qr.getAttribute('data-pay-uri'))!;
  expect(address).toMatch(T_ADDRESS);
  await expect(payer.getByText(address, { exact: true })).toBeVisible();
  await expect(payer.getByText('Send exactly 12.34 USDT on TRON (TRC-20) to:')).toBeVisible();
  await expectNoSidewaysScroll(payer, 'TRON checkout');
  await shot(payer, 'tron-checkout-360');

  // Paid from a TRON wallet: the watcher sees the TRC-20 transfer and the checkout turns paid.
  await payOnTron(address, '12.34');
  await expect(payer.getByTestId('checkout-status')).toHaveAttribute('data-status', PAID, { timeout: 60_000 });
  await expect(payer.getByTestId('checkout-status')).toHaveAttribute('data-status', /^(CONFIRMED|PROCESSING_PAYOUT|PAID_OUT)$/, { timeout: 60_000 });
  await expectNoSidewaysScroll(payer, 'TRON checkout, paid');
  await shot(payer, 'tron-checkout-paid-360');
  await payer.close();
});
