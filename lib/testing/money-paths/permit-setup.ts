import { and, eq, sql } from 'drizzle-orm';
import { parseSignature, serializeSignature } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { emails } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { rowsOf } from '@/lib/db';
import { permitOffer } from '@/lib/subscriptions/collect/permit-offer';
import { runCollection } from '@/lib/subscriptions/collect/run-collection';
import { setUpCollectionByPermitFromCheckout } from '@/lib/subscriptions/collect/turn-on-collection';
import { startAnvil, type AnvilChain } from '../anvil';
import { api, fromLib, type Cred, type PathRunner, type Subject, type Try, type Variant } from './entries';
import type { World } from './world';

/**
 * The USDC rail the permit set-up needs (EIP-2612: Ethereum's stand-in, Circle's FiatToken), next to the world's
 * BSC chain: installed as the test mode's ETHEREUM network for the matrix file's duration.
 */
export const usdc = { chain: undefined as AnvilChain | undefined };
export async function startUsdcChain() {
  usdc.chain = await startAnvil({ chain: 'ETHEREUM', tokens: [{ asset: 'USDC', decimals: 6 }] });
  setNetworkOverride('test', usdc.chain.network('test'));
}
export async function stopUsdcChain() {
  setNetworkOverride('test', undefined, 'ETHEREUM');
  await usdc.chain?.stop();
}

const gasWallet = (c: AnvilChain) => c.client.getTransactionCount({ address: privateKeyToAccount(c.keys.gas).address });

/**
 * A daily USDC subscription of the world's tenant with its first invoice (no trial) and that invoice's claim token,
 * and a payer holding USDC and no gas coin: what the payer, a key or anyone else may try to set up.
 */
async function permitSubject(w: World, v: Variant): Promise<Subject> {
  const key = { sid: null, key: w.keys.admin, token: null };
  const plan = await api('POST', '/v1/plans', key, { name: 'Matrix USDC', amount: v.amount, chain: 'ETHEREUM', token: 'USDC', interval: 'day' });
  if (!plan.ok) throw new Error(`no USDC plan: ${JSON.stringify(plan)}`);
  const sub = await api('POST', '/v1/subscriptions', key, { planId: plan.data.id, customerEmail: 'matrix-usdc@example.com' });
  if (!sub.ok) throw new Error(`no USDC subscription: ${JSON.stringify(sub)}`);
  const [mail] = await w.db
    .select({ data: emails.data })
    .from(emails)
    .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, sub.data.latestInvoiceId)));
  const claim = new URL(mail!.data.payUrl!).searchParams.get('claim')!;
  const payerKey = generatePrivateKey();
  await usdc.chain!.mint(privateKeyToAccount(payerKey).address, '100');
  return { invoiceId: sub.data.latestInvoiceId, claim, permit: { subscriptionId: sub.data.id, payerKey } };
}

type TypedData = { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, string> };

/**
 * The payer's wallet signing the offer for this subscription (fresh: nothing refused moves the nonces), as the page's
 * wallet does. `v.foreignSigner`: another wallet signs the payer's messages; `v.revoked`: the payer allows less than
 * one period (no usable permission).
 */
async function signedBody(w: World, s: Subject, v: Variant) {
  const { subscriptionId, payerKey } = s.permit!;
  const payer = privateKeyToAccount(payerKey).address;
  const offer = await permitOffer(w.db, subscriptionId, payer);
  const deadline = String(Number((await usdc.chain!.client.getBlock()).timestamp) + 3600);
  const value = v.revoked ? '1' : offer.permitValue;
  const hex = async (td: TypedData, message: Record<string, string>) => {
    const { EIP712Domain: _, ...types } = td.types;
    const by = privateKeyToAccount(v.foreignSigner ? generatePrivateKey() : payerKey);
    const sig = await by.signTypedData({ domain: td.domain, types, primaryType: td.primaryType, message } as never);
    const { r, s: sv, yParity } = parseSignature(sig);
    return serializeSignature({ r, s: sv, v: BigInt(yParity + 27) });
  };
  const { permit, authorize } = offer.typedData as unknown as { permit: TypedData; authorize: TypedData };
  return {
    payer,
    chainId: offer.chainId,
    permitValue: value,
    deadline,
    permitSignature: await hex(permit, { ...permit.message, value, deadline }),
    authorizeSignature: await hex(authorize, { ...authorize.message, deadline }),
  };
}

/** Done when the gas wallet sent the set-up (its transaction count went up) and the entry answered without an error. */
async function sending(run: () => Promise<Try>): Promise<Try> {
  const before = await gasWallet(usdc.chain!);
  const t = await run();
  const sent = (await gasWallet(usdc.chain!)) - before;
  if (t.ok && sent !== 1) return { ok: false, code: `sent ${sent} transactions` };
  return t;
}

export const permitSetupRunner: PathRunner = {
  amount: '10.00',
  destination: () => '',
  unlisted: () => [{}],
  moneyOnly: true,
  subject: permitSubject,
  // What a refusal must leave as it was besides the money: the gas wallet's transactions and the recorded set-ups.
  written: async (w) => ({
    gasWalletTxs: String(await gasWallet(usdc.chain!)),
    ...rowsOf<Record<string, string>>(
      await w.db.execute(sql`select
        (select count(*) from collection_setups s join subscriptions x on x.id = s.subscription_id where x.tenant_id = ${w.tenantId})::text as setups,
        (select count(*) from subscription_collections c join subscriptions x on x.id = c.subscription_id where x.tenant_id = ${w.tenantId})::text as collections`),
    )[0]!,
  }),
  entries: {
    api: async (w, s, c: Cred, v) =>
      sending(async () => api('POST', `/v1/subscriptions/${s.permit!.subscriptionId}/collection/permit`, c, await signedBody(w, s, v))),
    checkout: async (w, s, c, v) => {
      const body = await signedBody(w, s, v);
      return sending(() => fromLib(() => setUpCollectionByPermitFromCheckout(w.db, s.invoiceId, { claimToken: c.token ?? undefined, body })));
    },
    // The collection job, as the worker runs it: it resumes recorded set-ups only, so here it must send nothing.
    job: (w) => sending(async () => ({ ok: true, data: await runCollection(w.db, { tenantId: w.tenantId }) })),
  },
};
