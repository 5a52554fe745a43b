import QRCode from 'qrcode';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutLive } from '@/components/checkout/checkout-live';
import { RefundAddressForm } from '@/components/checkout/refund-address-form';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';

let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

/*
 * The checkout of a TRON:USDT invoice: the T… address (never the stored 41… form), the rail as TRON wallets name
 * it, and a QR of the bare address, since TRON has no payment URI its wallets share (docs/tron.md, "Checkout").
 */
describe('the checkout of a TRON invoice', () => {
  it('shows the T… address, "USDT (TRC-20) on TRON" and a QR of the address alone', async () => {
    const t = await createTestTenant({ name: 'Tron Shop' });
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '12.34', chain: 'TRON', token: 'USDT' } });
    expect(inv.status, inv.text).toBe(201);
    const address = inv.body.depositAddress as string;
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);

    const res = await call('GET', `/api/pay/${inv.body.id}/status`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      amountExpected: '12.34',
      token: 'USDT',
      network: 'TRON (TRC-20)',
      rail: 'USDT (TRC-20) on TRON',
      addressFamily: 'tron',
      depositAddress: address,
      payUri: address,
      qrHasAmount: false,
    });
    expect(res.text).not.toMatch(/(?<![0-9a-fA-F])41[0-9a-f]{40}(?![0-9a-fA-F])/);
    expect(res.text).not.toContain('ethereum:');
    expect(res.body.qrSvg).toBe(await QRCode.toString(address, { type: 'svg', margin: 1, width: 220, errorCorrectionLevel: 'M' }));
  });

  it('the page renders the T… address, the rail, a QR of the address; a TRON refund field asks for T…', async () => {
    const t = await createTestTenant({ name: 'Tron Shop' });
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', chain: 'TRON', token: 'USDT' } });
    const state = (await call('GET', `/api/pay/${inv.body.id}/status`)).body;
    const html = renderToStaticMarkup(createElement(CheckoutLive, { initial: state as never }));
    expect(html).toContain(inv.body.depositAddress);
    expect(html).toContain('USDT (TRC-20) on TRON');
    expect(html).toContain(`data-pay-uri="${inv.body.depositAddress}"`);
    expect(html).not.toContain('ethereum:');

    const form = (addressFamily?: 'tron' | 'evm') =>
      renderToStaticMarkup(
        createElement(RefundAddressForm, {
          action: () => {},
          pending: false,
          inputId: 'a',
          label: 'Address',
          hidden: {},
          submitLabel: 'Go',
          note: '',
          addressFamily,
        }),
      );
    const tronField = form('tron');
    expect(tronField).toContain('placeholder="T…"');
    const pattern = new RegExp(`^(?:${/pattern="([^"]+)"/.exec(tronField)![1]})$`);
    expect(pattern.test(inv.body.depositAddress)).toBe(true);
    expect(pattern.test('0x8ba1f109551bD432803012645Ac136ddd64DBA73')).toBe(false);
    expect(form()).toContain('placeholder="0x…"');
  });
});
