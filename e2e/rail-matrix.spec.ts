import { expect, test, type Page } from '@playwright/test';
import { ADDRESS_RULES, addressProblem, addressRuleOf } from '@/lib/chain/address-rules';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { networkLabel, railLabel } from '@/lib/checkout/network-label';
import { familyOf, splitRailId } from '@/lib/config/rails';
import { closeDb } from '@/lib/db';
import { DEV_RAILS } from '@/lib/dev/dev-rails';
import { shot } from './support/dashboard';
import { signedUpMerchant } from './support/merchant';
import { payOnRail } from './support/pay-rail';

/*
 * Issue 43 §1, the screens: for every rail the dev stack enables (lib/dev/dev-rails.ts; the e2e stack enables the
 * same, e2e/support/stack-env.ts), the merchant creates an invoice with the dashboard's rail picker, the payer's
 * checkout at 360 px shows that network's name and its address form, and once paid the dashboard's refund and
 * withdrawal forms take that family's address and refuse the other family's, by name, before anything is sent;
 * Max fills what the API says. A rail added to the list adds its test here.
 */
const PASSWORD = 'correct-horse-battery';
const PRICE = '30.00'; // above every dev network's sweep minimum, so the balance is the price less the 1 % fee

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

for (const rail of DEV_RAILS) {
  const { chain, token } = splitRailId(rail);
  const rule = addressRuleOf(chain);
  const other = Object.values(ADDRESS_RULES).find((r) => r.family !== familyOf(chain))!;
  const refusal = addressProblem(chain, other.example)!;

  test(`${rail}: rail picker, checkout at 360 px, refund and withdrawal forms take ${rule.name} and refuse ${other.name}; Max`, async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const m = await signedUpMerchant(page, request, `Matrix ${rail}`, PASSWORD);

    // The dashboard's rail picker.
    await page.goto('/dashboard/invoices');
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.getByLabel('Paid in').selectOption(rail);
    await page.getByLabel('Amount', { exact: true }).fill(PRICE);
    await page.getByRole('button', { name: 'Create invoice' }).last().click();
    await expect(page).toHaveURL(/\/dashboard\/invoices\/inv_/);
    const invoiceId = page.url().split('/').pop()!;
    const invoice = await m.json(`/v1/invoices/${invoiceId}`);
    expect(invoice).toMatchObject({ chain, token, amountExpected: PRICE });
    await expect(page.getByTestId('deposit-rail')).toHaveText(`${railLabel(chain, token)} only.`);
    await expect(page.getByTestId('deposit-address')).toHaveText(invoice.depositAddress);
    const checkoutPath = (await page.getByTestId('checkout-link').textContent())!.trim();

    // The payer's checkout on a phone: the network by name, the deposit address in the family's wire form.
    const payer = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await payer.goto(checkoutPath);
    await expect(payer.getByTestId('checkout-status')).toHaveAttribute('data-status', 'PENDING');
    await expect(payer.getByTestId('rail')).toHaveText(railLabel(chain, token));
    await expect(payer.getByText(`Send exactly ${PRICE} ${token} on ${networkLabel(chain)} to:`)).toBeVisible();
    const shown = invoice.depositAddress as string;
    expect(shown).toMatch(rule.pattern);
    expect(shown, 'the canonical wire form (EIP-55, Base58Check)').toBe(formatAddress(shown));
    await expect(payer.getByText(shown, { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(payer, `${rail} checkout`);
    await shot(payer, `rail-matrix-${rail.replace(':', '-')}-checkout-360`);

    await payOnRail(chain, token, shown, PRICE);
    await expect(payer.getByTestId('checkout-status')).toHaveAttribute('data-status', 'PAID_OUT', { timeout: 120_000 });
    await payer.close();

    // The invoice's refund form: the other family's address is refused before the review, this family's reaches it.
    await page.goto(`/dashboard/invoices/${invoiceId}`);
    const refund = page.getByRole('form', { name: 'Refund' });
    const refundAddress = refund.getByLabel(`Payer's address on ${networkLabel(chain)}`);
    await expect(refundAddress).toHaveAttribute('placeholder', rule.placeholder);
    // An amount the server would accept on every dev rail (above TRON's 5.00 minimum), so only the address is at fault.
    await refund.getByLabel(`Amount (${token})`).fill('10.00');
    await refundAddress.fill(other.example);
    await refund.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(refund.getByRole('alert')).toHaveText(`The payer's address ${refusal}`);
    await expect(page.getByRole('button', { name: 'Confirm refund' })).toHaveCount(0);
    await refundAddress.fill(rule.example);
    await refund.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Confirm refund' })).toBeVisible();
    await expect(page.getByText(networkLabel(chain)).last()).toBeVisible();

    // The withdrawal form on this rail: the same rule, and Max fills what the API answers.
    await page.goto('/dashboard/balance');
    await page.locator('#wd-rail').selectOption(rail);
    // The network as the rails table names it, not its key.
    await expect(page.locator('#wd-rail').locator('option:checked')).toHaveText(`${token} balance, sent on ${networkLabel(chain)}`);
    const address = page.getByLabel(`Destination address on ${networkLabel(chain)}`);
    await expect(address).toHaveAttribute('placeholder', rule.placeholder);
    await address.fill(other.example);
    await address.blur();
    await expect(page.locator('#wd-address-msg')).toHaveText(`The address ${refusal}.`);
    await address.fill(rule.example);
    await address.blur();
    await expect(page.locator('#wd-address-msg')).toHaveText(`✓ Valid address ${rule.example}`);
    const max = await m.json(`/v1/withdrawals/max?currency=${token}&chain=${chain}`);
    expect(Number(max.maxAmount)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Max' }).click();
    await expect(page.getByLabel(`Amount (${token})`)).toHaveValue(max.maxAmount);
    await shot(page, `rail-matrix-${rail.replace(':', '-')}-withdrawal`);
  });
}
