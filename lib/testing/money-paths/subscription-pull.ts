import { createWalletClient, erc20Abi, http, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { permissionIdOf } from '@/lib/subscriptions/collect/collector-network';
import { runCollection } from '@/lib/subscriptions/collect/run-collection';
import { setUpCollection } from '@/lib/subscriptions/collect/set-up-collection';
import { createPlan } from '@/lib/subscriptions/create-plan';
import { createSubscription } from '@/lib/subscriptions/create-subscription';
import { runBilling } from '@/lib/subscriptions/run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from '@/lib/subscriptions/schemas';
import type { Subject, Try, Variant } from './entries';
import type { World } from './world';

async function send(w: World, key: Hex, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const c = w.chain;
  const wallet = createWalletClient({ chain: c.client.chain, account: privateKeyToAccount(key), transport: http(c.rpcUrl), cacheTime: 0 });
  await c.client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName, args, gas: 300_000n }) });
}

/**
 * A subscription of the world's tenant whose payer approved the collector and authorized the amount from now (the
 * chain's clock), collection set up, then its first period billed at the trial's end (billing's injectable clock):
 * what the job pulls next. `v.revoked`: the payer then revoked the permission on the collector.
 */
export async function pullSubject(w: World, v: Variant): Promise<Subject> {
  const owner = { tenantId: w.tenantId, mode: 'test' as const, tenant: { rails: null } };
  const plan = await createPlan(w.db, owner, CreatePlanBody.parse({ name: 'Matrix daily', amount: v.amount, interval: 'day', trialDays: 1 }));
  const sub = await createSubscription(w.db, owner, CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: 'matrix@example.com' }));
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key).address;
  const units = parseUnits(v.amount, 18);
  await w.chain.client.setBalance({ address: payer, value: parseUnits('1', 18) });
  await w.chain.mint(payer, '100');
  await send(w, key, w.chain.token, erc20Abi, 'approve', [w.chain.collector, units * 10n]);
  const start = (await w.chain.client.getBlock()).timestamp;
  await send(w, key, w.chain.collector, COLLECTOR_ABI, 'authorize', [permissionIdOf(sub.id), w.chain.token, units, 86_400n, start]);
  await setUpCollection(w.db, sub.id, { payer });
  if (v.revoked) await send(w, key, w.chain.collector, COLLECTOR_ABI, 'revoke', [permissionIdOf(sub.id)]);
  const at = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
  await runBilling(w.db, { now: at, tenantId: w.tenantId });
  return { invoiceId: w.invoiceId, pull: { subscriptionId: sub.id, payer, at } };
}

/** The collection job, as the worker runs it: done when it pulled from this subject's payer (their balance went down). */
export async function pullJob(w: World, s: Subject): Promise<Try> {
  const { payer, at } = s.pull!;
  const before = await w.chain.tokenBalance(payer);
  const counts = await runCollection(w.db, { now: at, tenantId: w.tenantId });
  const after = await w.chain.tokenBalance(payer);
  return after < before ? { ok: true, data: counts } : { ok: false, code: `not_pulled ${JSON.stringify(counts)}` };
}
