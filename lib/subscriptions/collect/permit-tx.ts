import { and, eq, ne } from 'drizzle-orm';
import type { Address, Hex, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { collectionSetups, subscriptions, type CollectionSetup } from '@/db/schema';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { CollectorNetwork } from './collector-network';
import { pricePullGas } from './price-pull-gas';
import { chargeGasOnEnd } from '../charge-gas-on-end';
import { landed, signed } from './pull-tx';
import type { VerifiedPermit } from './verify-permit';

/**
 * Records the operator's permitAndAuthorize, signed, before anything is broadcast, as a pull is (pull-tx.ts): one
 * transaction inserts the row (its unique index on chain, payer and the Authorize's nonce refuses a second one),
 * reserves the gas wallet's nonce and stores the signed bytes. When the consent has a row already (a replay, or a
 * concurrent submission that got there first) that row is returned and nothing is signed: one transaction per consent.
 */
export async function recordSetUp(
  db: Db,
  client: PublicClient,
  net: CollectorNetwork,
  p: { subscriptionId: string; payer: Address; authorizeSignature: Hex; verified: VerifiedPermit },
): Promise<CollectionSetup> {
  const operator = privateKeyToAccount(net.operatorKey);
  const [gasPrice, pending] = await Promise.all([
    client.getGasPrice(),
    client.getTransactionCount({ address: operator.address, blockTag: 'pending' }),
  ]);
  const consent = and(
    eq(collectionSetups.chainId, net.chainId),
    eq(collectionSetups.payer, p.payer.toLowerCase()),
    eq(collectionSetups.collectorNonce, p.verified.collectorNonce.toString()),
    ne(collectionSetups.status, 'failed'),
  );
  const made = await db
    .transaction(async (tx) => {
      const tx1 = await signed(tx, operator, net, pending, gasPrice, net.collectorAddress as Address, p.verified.data, p.verified.gas);
      const [row] = await tx
        .insert(collectionSetups)
        .values({
          id: newId('chainTx'),
          subscriptionId: p.subscriptionId,
          chainId: net.chainId,
          payer: p.payer.toLowerCase(),
          collectorNonce: p.verified.collectorNonce.toString(),
          authorizeSignature: p.authorizeSignature.toLowerCase(),
          status: 'signed',
          fromAddress: tx1.from,
          nonce: tx1.nonce,
          txHash: tx1.hash,
          rawTx: tx1.raw,
        })
        .onConflictDoNothing()
        .returning();
      // Taken already: the reserved nonce must not be used up by nothing, so the whole transaction is undone.
      if (!row) throw new Taken();
      return row;
    })
    .catch((err: unknown) => {
      if (err instanceof Taken) return null;
      throw err;
    });
  if (made) return made;
  const [kept] = await db.select().from(collectionSetups).where(consent);
  if (!kept) throw new Error('the consent row vanished after a conflict');
  return kept;
}

class Taken extends Error {}

/** A recorded set-up of a payer's signed pair, found by its Authorize signature (a replayed submission); failed ones are not. */
export async function findSetUp(db: Db, chainId: number, authorizeSignature: Hex): Promise<CollectionSetup | null> {
  const [row] = await db
    .select()
    .from(collectionSetups)
    .where(
      and(
        eq(collectionSetups.chainId, chainId),
        eq(collectionSetups.authorizeSignature, authorizeSignature.toLowerCase()),
        ne(collectionSetups.status, 'failed'),
      ),
    );
  return row ?? null;
}

/**
 * Broadcasts a recorded set-up (the same bytes, harmless if mined meanwhile) and waits for it; a node that cannot be
 * reached throws and leaves the row `signed` (the collection job or a replay resumes it). Its gas goes to gas_spend,
 * and priced in the token (pricePullGas) to `network_fee`, the merchant's to pay (pull-fee-entries.ts).
 */
export async function sendSetUp(db: Db, client: PublicClient, net: CollectorNetwork, row: CollectionSetup): Promise<CollectionSetup> {
  if (row.status !== 'signed') return row;
  const r = await landed(client, row.txHash as Hex, row.rawTx as Hex);
  await recordGasSpend(db, {
    mode: net.mode,
    chainId: net.chainId,
    kind: 'collector_setup',
    referenceId: row.id,
    txHash: r.transactionHash,
    gasUsed: r.gasUsed,
    gasPrice: r.effectiveGasPrice,
  });
  // EIP-2612 is an EVM token's: the cost is in wei (18 decimals).
  const networkFee = await pricePullGas(db, net, row.id, 18);
  const done = await db.transaction(async (tx) => {
    const [set] = await tx
      .update(collectionSetups)
      .set({
        status: r.status === 'success' ? 'confirmed' : 'failed',
        gasUsed: r.gasUsed,
        networkFee,
        confirmedAt: new Date(),
        lastError: r.status === 'success' ? null : 'reverted',
      })
      .where(and(eq(collectionSetups.id, row.id), eq(collectionSetups.status, 'signed')))
      .returning();
    // Confirmed after its subscription ended (canceled while it was in flight): no later invoice of it will pay its gas.
    const [sub] = set?.status === 'confirmed' ? await tx.select().from(subscriptions).where(eq(subscriptions.id, set.subscriptionId)) : [];
    if (sub?.status === 'canceled') await chargeGasOnEnd(tx, sub);
    return set;
  });
  if (done) return done;
  const [now] = await db.select().from(collectionSetups).where(eq(collectionSetups.id, row.id));
  return now!;
}
