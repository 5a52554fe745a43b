import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { updateTenantRails } from '@/lib/tenants/update-tenant-rails';
import { call } from '@/lib/testing/app';
import { balanceOf, invoiceDetail, railsTenant, sendToken, withTwoRails, type TwoRails } from '@/lib/testing/two-rails';
import { createLinkInvoice, type LinkInvoiceLimits } from './create-link-invoice';

const { default: PaymentLinkPage } = await import('@/app/l/[slug]/page');

/*
 * A payment link is on one of the tenant's rails (chain and token), not BSC USDT only: the API
 * takes it, each payer's invoice is on it, and the public page names that token and network.
 */
let rails: TwoRails;
withTwoRails((r) => {
  rails = r;
});

const wide: LinkInvoiceLimits = { perAddressPerMinute: 1000, perLinkPerMinute: 1000, maxOpenInvoices: 1000 };
const slugOf = (link: { url: string }) => link.url.replace('/l/', '');
const ACTOR = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };

async function pageText(link: { url: string }) {
  const html = renderToStaticMarkup(await PaymentLinkPage({ params: Promise.resolve({ slug: slugOf(link) }) }));
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('payment links on any of the tenant rails', () => {
  it('a USDC link on Ethereum: its invoices are Ethereum USDC, paid there, and its page says so', async () => {
    const t = await railsTenant(rails);
    const res = await call('POST', '/v1/payment-links', {
      key: t.test,
      body: { name: 'Sticker pack', amount: '12.00', chain: 'ETHEREUM', token: 'USDC' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ chain: 'ETHEREUM', token: 'USDC', currency: 'USDC', amount: '12.00' });
    expect((await call('GET', `/v1/payment-links/${res.body.id}`, { key: t.test })).body).toMatchObject({ chain: 'ETHEREUM', token: 'USDC' });

    const text = await pageText(res.body);
    expect(text).toContain('12.00 USDC');
    expect(text).toContain('USDC (ERC-20) on Ethereum');
    expect(text).toContain('Pay with USDC');
    expect(text).not.toMatch(/USDT|BEP-20|BNB Smart Chain/);

    const inv = await createLinkInvoice(t.db, slugOf(res.body), { clientAddress: '198.51.100.77' }, { limits: wide });
    expect(inv).toMatchObject({ chain: 'ETHEREUM', token: 'USDC', amountExpected: '12.00', paymentLinkId: res.body.id });
    await sendToken(rails.eth, 'USDC', inv.depositAddress, '12');
    await rails.eth.mine(5);
    for (let i = 0; i < 3; i++) await t.jobs();
    expect((await invoiceDetail(t.test, inv.id)).status).toBe('PAID_OUT');
    expect((await balanceOf(t.test, 'USDC')).available).toBe('11.88');
    expect((await call('GET', `/v1/payment-links/${res.body.id}`, { key: t.test })).body).toMatchObject({ paidCount: 1 });
  });

  it('the default stays BSC USDT; a fiat price is for USDT links; a rail that is not enabled or that the tenant turned off is a 400', async () => {
    const t = await railsTenant(rails);
    const plain = await call('POST', '/v1/payment-links', { key: t.test, body: { name: 'Plain', amount: '5' } });
    expect(plain.body).toMatchObject({ chain: 'BSC', token: 'USDT', currency: 'USDT' });
    expect(await pageText(plain.body)).toContain('USDT (BEP-20) on BNB Smart Chain');
    const eur = await call('POST', '/v1/payment-links', { key: t.test, body: { name: 'Euro', amount: '5', currency: 'EUR', chain: 'ETHEREUM' } });
    expect(eur.body).toMatchObject({ chain: 'ETHEREUM', token: 'USDT', currency: 'EUR' });

    for (const [body, path] of [
      [{ token: 'USDC', currency: 'EUR' }, 'currency'],
      [{ token: 'USDC', currency: 'USDT' }, 'currency'],
      [{ chain: 'POLYGON' }, 'chain'],
      [{ chain: 'SOLANA' }, 'chain'],
      [{ token: 'DAI' }, 'token'],
    ] as const) {
      const res = await call('POST', '/v1/payment-links', { key: t.test, body: { name: 'Bad', amount: '5', ...body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe('validation_failed');
      expect(JSON.stringify(res.body.details), JSON.stringify(body)).toContain(path);
    }
    // Turned off in the tenant's settings: refused when the link is made, and a link made before stops taking payers.
    const usdc = await call('POST', '/v1/payment-links', { key: t.test, body: { name: 'Later off', amount: '5', chain: 'ETHEREUM', token: 'USDC' } });
    expect(usdc.status).toBe(201);
    await updateTenantRails(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, { rails: ['BSC:USDC', 'ETHEREUM:USDT'] });
    const off = await call('POST', '/v1/payment-links', { key: t.test, body: { name: 'Off', amount: '5', chain: 'ETHEREUM', token: 'USDC' } });
    expect(off.status, off.text).toBe(400);
    const err = await createLinkInvoice(t.db, slugOf(usdc.body), { clientAddress: null }, { limits: wide }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('invalid_state');
  });
});
