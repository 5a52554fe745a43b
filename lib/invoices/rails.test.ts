import { eq, sql } from 'drizzle-orm';
import { parseUnits, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { rowsOf } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { balanceOf, createInvoice, invoiceDetail, ledgerSums, railsTenant, sendToken, withTwoRails, type TwoRails } from '@/lib/testing/two-rails';
import { updateWrongNetworkPolicy } from '@/lib/tenants/update-wrong-network-policy';
import { getCheckout } from '@/lib/checkout/get-checkout';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { updateTenantRails } from '@/lib/tenants/update-tenant-rails';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Two local chains side by side (lib/testing/two-rails.ts): invoices on each
 * rail paid and credited per asset, payments on the wrong network or in the
 * wrong token found and held, and a reorg on one network leaving the other alone.
 */
let bsc: AnvilChain;
let eth: AnvilChain;
let ethNet: Network;
let rails: TwoRails;
withTwoRails((r) => {
  ({ bsc, eth, ethNet } = r);
  rails = r;
});

const setup = () => railsTenant(rails);
const create = createInvoice;
const detail = invoiceDetail;
const send = sendToken;

describe('rails: several networks and tokens', () => {
  it('an Ethereum USDT invoice (6 decimals) is paid, swept on Ethereum and credited to the USDT balance', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '25.50', chain: 'ETHEREUM', token: 'USDT' });
    expect(inv).toMatchObject({ chain: 'ETHEREUM', token: 'USDT', status: 'PENDING' });
    const hotBefore = await eth.tokenBalance(eth.addresses.hot, eth.tokenOf('USDT'));

    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '25.5' } });
    expect(paid.status, paid.text).toBe(200);
    await eth.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await t.jobs();
    expect((await detail(t.test, inv.id)).amountReceived).toBe('25.50');
    await eth.mine(5);
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountCredited: '25.24', feeAmount: '0.26' });
    // 6-decimal base units on chain: 25.24 USDT is 25,240,000 units at the hot wallet (the fee in cents: 0.255 → 0.26).
    expect((await eth.tokenBalance(eth.addresses.hot, eth.tokenOf('USDT'))) - hotBefore).toBe(25_240_000n);
    expect((await balanceOf(t.test)).available).toBe('25.24');
    // Nothing moved on the other chain.
    expect(await bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress))).toBe(0n);
  });

  it('a BSC USDC invoice credits the USDC balance, not the USDT one; balances equal their ledger sums', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '10.00', token: 'USDC' });
    expect(inv).toMatchObject({ chain: 'BSC', token: 'USDC' });
    await send(bsc, 'USDC', inv.depositAddress, '10');
    await bsc.mine(5);
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('PAID_OUT');
    expect(await balanceOf(t.test, 'USDC')).toMatchObject({ available: '9.90', currency: 'USDC', pending: '0.00' });
    expect(await balanceOf(t.test)).toMatchObject({ available: '0.00', currency: 'USDT', network: 'BSC' });
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
  });

  it('a rail the gateway does not enable, or a stablecoin price in the other token, is a 400 and creates nothing', async () => {
    const t = await setup();
    for (const body of [
      { amount: '5.00', chain: 'POLYGON', token: 'USDT' },
      { amount: '5.00', chain: 'BASE', token: 'USDT' },
      { amount: '5.00', chain: 'TRON' },
      { amount: '5.00', token: 'USDC', currency: 'USDT' },
      { amount: '5.00', token: 'USDC', currency: 'EUR' },
    ]) {
      const res = await call('POST', '/v1/invoices', { key: t.test, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, res.text).toBe('validation_failed');
    }
    const list = await call('GET', '/v1/invoices', { key: t.test });
    expect(list.body.data).toHaveLength(0);
  });

  it('by default, USDT sent on Ethereum to a BSC invoice pays it: confirmed on Ethereum, swept there, credited to USDT', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '40.00' });
    const hotBefore = await eth.tokenBalance(eth.addresses.hot, eth.tokenOf('USDT'));
    const hash = await send(eth, 'USDT', inv.depositAddress, '40');
    await t.jobs();
    let d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'DETECTED', amountReceived: '40.00', heldPayments: [] });
    expect(d.payments).toMatchObject([{ chain: 'ETHEREUM', txHash: hash, confirmations: 0 }]);
    // BSC blocks do not confirm an Ethereum payment.
    await bsc.mine(10);
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('DETECTED');
    await eth.mine(5);
    await t.jobs();
    d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountCredited: '39.60', feeAmount: '0.40' });
    expect((await eth.tokenBalance(eth.addresses.hot, eth.tokenOf('USDT'))) - hotBefore).toBe(39_600_000n);
    expect(await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), eth.tokenOf('USDT'))).toBe(0n);
    expect((await balanceOf(t.test)).available).toBe('39.60');
    const stls = rowsOf<{ chain_id: number; token: string }>(
      await t.db.execute(sql`select chain_id, token from settlements where invoice_id = ${inv.id}`),
    );
    expect(stls).toEqual([{ chain_id: String(eth.chainId), token: 'USDT' }]);
  });

  it('an invoice paid half on its network and half on another is swept on each, and credited in full once', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '20.00' });
    const wallets = async () => ({
      bsc: (await bsc.tokenBalance(bsc.addresses.hot)) + (await bsc.tokenBalance(bsc.addresses.fee)),
      eth: (await eth.tokenBalance(eth.addresses.hot, eth.tokenOf('USDT'))) + (await eth.tokenBalance(eth.addresses.fee, eth.tokenOf('USDT'))),
    });
    const before = await wallets();
    await send(bsc, 'USDT', inv.depositAddress, '10');
    await send(eth, 'USDT', inv.depositAddress, '10');
    await bsc.mine(5);
    await eth.mine(5);
    await t.jobs();
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '20.00', amountCredited: '19.80' });
    expect(d.settlements.map((x: { status: string }) => x.status)).toEqual(['completed', 'completed']);
    expect((await balanceOf(t.test)).available).toBe('19.80');
    expect(await bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress))).toBe(0n);
    expect(await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), eth.tokenOf('USDT'))).toBe(0n);
    // Money conserved per network: what the payer sent on each is now in that network's hot and fee wallets, in its own base units.
    const after = await wallets();
    expect(after.bsc - before.bsc).toBe(parseUnits('10', 18));
    expect(after.eth - before.eth).toBe(10_000_000n);
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
  });

  it('under the hold policy, USDT sent on Ethereum to a BSC invoice is found, held and announced; the invoice does not count it', async () => {
    const t = await setup();
    await updateWrongNetworkPolicy(
      t.db,
      { tenantId: t.tenant.id, mode: 'test' },
      { kind: 'user', id: t.tenant.id, label: 'owner@test' },
      { wrongNetworkPolicy: 'hold' },
    );
    const inv = await create(t.test, { amount: '40.00' });
    const hash = await send(eth, 'USDT', inv.depositAddress, '40');
    await t.jobs();
    await t.jobs(); // a rescan records nothing twice
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    expect(d.heldPayments).toHaveLength(1);
    expect(d.heldPayments[0]).toMatchObject({
      chain: 'ETHEREUM',
      token: 'USDT',
      invoiceChain: 'BSC',
      invoiceToken: 'USDT',
      mismatch: 'network',
      status: 'held',
      amount: '40.00',
      txHash: hash,
    });
    const evts = await t.db.select().from(events).where(eq(events.subjectId, inv.id));
    const announced = evts.filter((e) => e.type === 'held_payment.detected');
    expect(announced).toHaveLength(1);
    expect(announced[0]!.data).toMatchObject({ chain: 'ETHEREUM', amount: '40.00', mismatch: 'network' });
    // The money stays on the deposit address, whose key the gateway holds on Ethereum too.
    expect(await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), eth.tokenOf('USDT'))).toBe(40_000_000n);
    expect((await balanceOf(t.test)).available).toBe('0.00');
    // The payer sees on the hosted checkout that it arrived and is held.
    const checkout = await getCheckout(t.db, inv.id);
    expect(checkout!.heldPayments).toEqual([
      { network: 'Ethereum (ERC-20)', token: 'USDT', amount: '40.00', mismatch: 'network', status: 'held', refundFailed: false },
    ]);

    // The merchant counts it: a payment of the invoice now, confirmed and swept on Ethereum; once only.
    const path = `/v1/invoices/${inv.id}/held-payments/${d.heldPayments[0].id}/credit`;
    const credited = await call('POST', path, { key: t.test, body: {} });
    expect(credited.status, credited.text).toBe(200);
    expect(credited.body).toMatchObject({ status: 'credited', chain: 'ETHEREUM' });
    expect((await call('POST', path, { key: t.test, body: {} })).status).toBe(409);
    expect((await detail(t.test, inv.id)).status).toBe('DETECTED');
    await eth.mine(5);
    await t.jobs();
    expect(await detail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '39.60' });
    expect(await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), eth.tokenOf('USDT'))).toBe(0n);
    // Another tenant's key cannot see or move it.
    const other = await createTestTenant();
    expect((await call('POST', path, { key: other.test, body: {} })).status).toBe(404);
  });

  it('USDC sent to a USDT invoice on its own network is a token mismatch, held apart from the invoice payment', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '15.00' });
    await send(bsc, 'USDC', inv.depositAddress, '7');
    await send(bsc, 'USDT', inv.depositAddress, '15');
    await bsc.mine(5);
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d.status).toBe('PAID_OUT');
    expect(d.amountReceived).toBe('15.00');
    expect(d.heldPayments).toMatchObject([{ chain: 'BSC', token: 'USDC', mismatch: 'token', amount: '7.00' }]);
    // Until the merchant resolves it (lib/payments/held-payments.test.ts), it is nobody's balance.
    expect((await balanceOf(t.test, 'USDC')).available).toBe('0.00');
    // The sweep moved only the invoice's token: the USDC is still on the address.
    expect(await bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), bsc.tokenOf('USDC'))).toBe(parseUnits('7', 18));
  });

  it('a reorg on Ethereum drops its payment and leaves the BSC one alone', async () => {
    const t = await setup();
    const onBsc = await create(t.test, { amount: '3.00' });
    const onEth = await create(t.test, { amount: '4.00', chain: 'ETHEREUM' });
    await send(bsc, 'USDT', onBsc.depositAddress, '3');
    await send(eth, 'USDT', onEth.depositAddress, '4');
    await t.jobs();
    expect((await detail(t.test, onEth.id)).status).toBe('DETECTED');
    expect((await detail(t.test, onBsc.id)).status).toBe('DETECTED');
    // Replace Ethereum's newest block (the payment's) by an empty one.
    await eth.client.request({ method: 'anvil_reorg' as any, params: [1, []] as any });
    await t.jobs();
    const e = await detail(t.test, onEth.id);
    expect(e).toMatchObject({ status: 'PENDING', amountReceived: '0.00', payments: [] });
    const b = await detail(t.test, onBsc.id);
    expect(b).toMatchObject({ status: 'DETECTED', amountReceived: '3.00' });
    expect(b.payments).toHaveLength(1);
  });

  it('a USDC withdrawal on Ethereum debits the USDC balance and is paid from the Ethereum hot wallet at 6 decimals', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '50.00', chain: 'ETHEREUM', token: 'USDC' });
    await send(eth, 'USDC', inv.depositAddress, '50');
    await eth.mine(5);
    await t.jobs();
    expect((await balanceOf(t.test, 'USDC')).available).toBe('49.50');
    const to = `0x${'7'.repeat(38)}${String(Date.now() % 100).padStart(2, '0')}` as Address;
    const res = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: '10.00', destinationAddress: to, chain: 'ETHEREUM', token: 'USDC' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ chain: 'ETHEREUM', token: 'USDC', amount: '10.00', feeAmount: '0.10' });
    expect(await balanceOf(t.test, 'USDC')).toMatchObject({ available: '39.40', pending: '10.10' });
    for (let i = 0; i < 3; i++) {
      await processWithdrawals(t.db, ethNet as LaneNetwork);
      await eth.mine(5);
    }
    await processWithdrawals(t.db, ethNet as LaneNetwork);
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
    expect(await eth.tokenBalance(to, eth.tokenOf('USDC'))).toBe(10_000_000n);
    expect(await eth.tokenBalance(to, eth.tokenOf('USDT'))).toBe(0n);
    expect(await bsc.tokenBalance(to)).toBe(0n);
    // The USDT balance paid nothing.
    expect((await balanceOf(t.test)).available).toBe('0.00');
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
  });

  it("a withdrawal is refused from an empty asset's balance, on a disabled rail, and to a deposit address of any network", async () => {
    const t = await setup();
    const usdc = await create(t.test, { amount: '5.00', token: 'USDC' });
    await send(bsc, 'USDC', usdc.depositAddress, '5');
    await bsc.mine(5);
    await t.jobs();
    const ethInvoice = await create(t.test, { amount: '1.00', chain: 'ETHEREUM' });
    const dest = `0x${'8'.repeat(40)}`;
    const tries: [Record<string, unknown>, number, string][] = [
      [{ amount: '1.00', destinationAddress: dest }, 400, 'insufficient_balance'],
      [{ amount: '1.00', destinationAddress: dest, chain: 'POLYGON', token: 'USDC' }, 400, 'validation_failed'],
      [{ amount: '1.00', destinationAddress: ethInvoice.depositAddress, token: 'USDC' }, 400, 'destination_deposit_address'],
    ];
    for (const [body, status, code] of tries) {
      const res = await call('POST', '/v1/withdrawals', { key: t.test, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code, res.text).toBe(code);
    }
    expect((await balanceOf(t.test, 'USDC')).available).toBe('4.95');
  });

  it('a tenant accepts only the rails it chose: others are a 400, BSC USDT always works, and GET /v1/tenants/me lists them', async () => {
    const t = await setup();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const actor = { kind: 'user' as const, id: t.tenant.id, label: 'owner@test' };
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body.rails).toEqual(['BSC:USDT', 'BSC:USDC', 'ETHEREUM:USDT', 'ETHEREUM:USDC']);
    await updateTenantRails(t.db, owner, actor, { rails: ['ETHEREUM:USDC'] });
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body.rails).toEqual(['BSC:USDT', 'ETHEREUM:USDC']);
    const off = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', chain: 'ETHEREUM', token: 'USDT' } });
    expect(off.status).toBe(400);
    expect(off.body.code).toBe('validation_failed');
    expect((await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', chain: 'ETHEREUM', token: 'USDC' } })).status).toBe(201);
    expect((await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } })).status).toBe(201);
    // Only the gateway's rails can be chosen.
    await expect(updateTenantRails(t.db, owner, actor, { rails: ['POLYGON:USDT'] })).rejects.toMatchObject({ code: 'validation_failed' });
  });
});
