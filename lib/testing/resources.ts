import type { Db } from '@/lib/db';
import type { IdKind } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { createTestKey } from './fixtures';
import { createTestEvent, createTestWebhookEndpoint } from './webhook-resources';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { createTestWithdrawal } from './withdrawal-resources';
import { createTestOrder, createTestProduct } from './storefront-resources';
import { createPaymentLink } from '@/lib/payment-links/create-payment-link';
import { CreatePaymentLinkBody } from '@/lib/payment-links/schemas';
import { heldPayments, payouts, refundClaims, refundRequests } from '@/db/schema';
import { newId } from '@/lib/ids';
import { createPlan } from '@/lib/subscriptions/create-plan';
import { createSubscription } from '@/lib/subscriptions/create-subscription';
import { CreatePlanBody, CreateSubscriptionBody } from '@/lib/subscriptions/schemas';

/**
 * Makes a real record of each kind a /v1 path can name, for the generated
 * "another tenant's id / other mode's id is a 404" tests. A path parameter
 * kind without a factory here fails the auth matrix test.
 */
const testInvoice = async (db: Db, owner: { tenantId: string; mode: Mode }) =>
  (
    await createInvoice(
      db,
      owner,
      { chain: 'BSC', chainId: 31337, confirmations: 5, depositMnemonic: DEV_MNEMONIC },
      CreateInvoiceBody.parse({ amount: '10.00' }),
    )
  ).id;

const testPlan = (db: Db, owner: { tenantId: string; mode: Mode }) =>
  createPlan(
    db,
    { ...owner, tenant: { rails: null } },
    CreatePlanBody.parse({ name: 'Test plan', amount: '10.00', interval: 'month', trialDays: 7 }),
  );

export const RESOURCE_FACTORIES: Partial<Record<IdKind, (db: Db, owner: { tenantId: string; mode: Mode }) => Promise<string>>> = {
  apiKey: async (db, owner) => (await createTestKey(db, { ...owner, scopes: ['invoices:read'] })).id,
  webhookEndpoint: async (db, owner) => (await createTestWebhookEndpoint(db, owner)).id,
  event: async (db, owner) => (await createTestEvent(db, owner)).id,
  invoice: testInvoice,
  withdrawal: async (db, owner) => (await createTestWithdrawal(db, owner)).id,
  // A payout with no items (GET shows it; nothing is paid): isolation needs only its row.
  payout: async (db, owner) => {
    const id = newId('payout');
    await db.insert(payouts).values({ id, ...owner, itemCount: 0, status: 'COMPLETED', completedAt: new Date() });
    return id;
  },
  product: async (db, owner) => (await createTestProduct(db, owner)).id,
  order: async (db, owner) => (await createTestOrder(db, owner)).id,
  // A payer's pending proposal on an invoice (as the checkout writes it once the invoice has something to give back).
  refundRequest: async (db, owner) => {
    const id = newId('refundRequest');
    await db.insert(refundRequests).values({
      id,
      ...owner,
      invoiceId: await testInvoice(db, owner),
      destinationAddress: `0x${'12'.repeat(20)}`,
      amount: '1',
      source: 'payer_token',
    });
    return id;
  },
  // A merchant's open refund claim link on an invoice of its own (the secret is not needed: only its hash is kept).
  refundClaim: async (db, owner) => {
    const id = newId('refundClaim');
    await db.insert(refundClaims).values({
      id,
      ...owner,
      invoiceId: await testInvoice(db, owner),
      amount: '1',
      tokenHash: `test-${id}`,
      status: 'OPEN',
      createdBy: 'user:usr_test',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    return id;
  },
  // A held payment on another network (as the watcher records one), on an invoice of its own.
  payment: async (db, owner) => {
    const id = newId('payment');
    const invoiceId = await testInvoice(db, owner);
    await db.insert(heldPayments).values({
      id,
      mode: owner.mode,
      chainId: 1,
      chain: 'ETHEREUM',
      token: 'USDT',
      tokenAddress: `0x${'34'.repeat(20)}`,
      txHash: `0x${id.slice(-16).toLowerCase().padStart(64, '0')}`,
      logIndex: 0,
      blockNumber: 1,
      blockHash: `0x${'56'.repeat(32)}`,
      blockTime: new Date(),
      fromAddress: `0x${'78'.repeat(20)}`,
      toAddress: `0x${'9a'.repeat(20)}`,
      amount: '1',
      invoiceId,
      tenantId: owner.tenantId,
      mismatch: 'network',
    });
    return id;
  },
  paymentLink: async (db, owner) =>
    (await createPaymentLink(db, { ...owner, tenant: { rails: null } }, CreatePaymentLinkBody.parse({ name: 'Test link', amount: '10.00' }))).id,
  plan: async (db, owner) => (await testPlan(db, owner)).id,
  // On a trial: no invoice yet, the subscription's row is all isolation needs.
  subscription: async (db, owner) =>
    (
      await createSubscription(
        db,
        { ...owner, tenant: { rails: null } },
        CreateSubscriptionBody.parse({ planId: (await testPlan(db, owner)).id, customerEmail: 'customer@example.com' }),
      )
    ).id,
};
