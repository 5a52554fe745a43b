import { and, eq } from 'drizzle-orm';
import { encodeFunctionData, keccak256, parseUnits, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { collectionPulls, subscriptionCollections, type CollectionPull } from '@/db/schema';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { reserveNonce } from '@/lib/chain/reserve-nonce';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { CollectorNetwork } from './collector-network';

/** Fixed gas limits (the pull is signed before the admin's allow is mined, so it cannot be estimated): ~77k and ~47k used. */
const PULL_GAS = 150_000n;
const ALLOW_GAS = 80_000n;

export interface PullRequest {
  subscriptionId: string;
  periodStart: Date;
  invoiceId: string;
  /** The invoice's amount in token units (decimal string). */
  amount: string;
  depositAddress: Address;
  payer: Address;
  permissionId: Hex;
  /** The deposit address is not allowed on the collector yet: the admin's setDepositAllowed goes first. */
  needsAllow: boolean;
}

export async function signed(
  tx: Db,
  account: PrivateKeyAccount,
  net: CollectorNetwork,
  pending: number,
  gasPrice: bigint,
  to: Address,
  data: Hex,
  gas: bigint,
) {
  // The sender is shared (the gas wallet also tops up sweeps): its nonces come from the locked row.
  const nonce = await reserveNonce(tx, net.chainId, account.address.toLowerCase(), pending);
  const raw = await account.signTransaction({ type: 'legacy', chainId: net.chainId, nonce, to, data, value: 0n, gas, gasPrice });
  return { from: account.address.toLowerCase(), nonce, raw, hash: keccak256(raw) };
}

/**
 * Records the period's pull, signed, before anything is broadcast: one transaction inserts the attempt row (its unique
 * index on subscription and period refuses a second one: null is returned, nothing signed), reserves the nonces and
 * stores the signed bytes. From then on the pull is only ever rebroadcast (sendPull), never signed again.
 */
export async function recordPull(db: Db, client: PublicClient, net: CollectorNetwork, p: PullRequest): Promise<CollectionPull | null> {
  const operator = privateKeyToAccount(net.operatorKey);
  const admin = p.needsAllow && net.adminKey ? privateKeyToAccount(net.adminKey) : null;
  const gasPrice = await client.getGasPrice();
  const pendingOf = (a: PrivateKeyAccount) => client.getTransactionCount({ address: a.address, blockTag: 'pending' });
  const [opPending, adminPending] = await Promise.all([pendingOf(operator), admin ? pendingOf(admin) : 0]);
  return db.transaction(async (tx) => {
    // Automatic collection turned off since the job listed this period (the payer, in the portal): no new pull. The
    // shared lock orders this against turnOffCollection's update of the same row (lib/subscriptions/collect/turn-off-collection.ts).
    const [on] = await tx
      .select({ id: subscriptionCollections.subscriptionId })
      .from(subscriptionCollections)
      .where(and(eq(subscriptionCollections.subscriptionId, p.subscriptionId), eq(subscriptionCollections.status, 'active')))
      .for('share');
    if (!on) return null;
    const [row] = await tx
      .insert(collectionPulls)
      .values({
        id: newId('chainTx'),
        subscriptionId: p.subscriptionId,
        periodStart: p.periodStart,
        invoiceId: p.invoiceId,
        status: 'signed',
        amount: p.amount,
        depositAddress: p.depositAddress.toLowerCase(),
        chainId: net.chainId,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    const allow = admin
      ? await signed(
          tx,
          admin,
          net,
          adminPending,
          gasPrice,
          net.collectorAddress as Address,
          encodeFunctionData({ abi: COLLECTOR_ABI, functionName: 'setDepositAllowed', args: [p.depositAddress, true] }),
          ALLOW_GAS,
        )
      : null;
    const units = parseUnits(p.amount, net.decimals);
    const pull = await signed(
      tx,
      operator,
      net,
      opPending,
      gasPrice,
      net.collectorAddress as Address,
      encodeFunctionData({ abi: COLLECTOR_ABI, functionName: 'collect', args: [p.permissionId, p.payer, units, p.depositAddress] }),
      PULL_GAS,
    );
    const [done] = await tx
      .update(collectionPulls)
      .set({
        fromAddress: pull.from,
        nonce: pull.nonce,
        txHash: pull.hash,
        rawTx: pull.raw,
        ...(allow ? { allowFrom: allow.from, allowNonce: allow.nonce, allowTxHash: allow.hash, allowRawTx: allow.raw } : {}),
      })
      .where(eq(collectionPulls.id, row.id))
      .returning();
    return done!;
  });
}

/** The receipt of a recorded transaction: looked up, else the identical bytes (re)broadcast and awaited. A failed look-up throws. */
export async function landed(client: PublicClient, hash: Hex, raw: Hex, afterBroadcast?: () => void | Promise<void>) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (err) {
    if (!(err instanceof TransactionReceiptNotFoundError)) throw err;
  }
  await broadcastRaw(client, raw);
  await afterBroadcast?.();
  return client.waitForTransactionReceipt({ hash, timeout: 30_000, pollingInterval: 100 });
}

/**
 * Broadcasts a recorded pull (the admin's allow first) and waits for it: ok when it succeeded, not when it reverted.
 * Any failure to reach the node or read a receipt throws and leaves the row `signed`: the next run rebroadcasts the
 * same bytes (harmless if they were mined meanwhile), so a period is never pulled twice. The gas of both is recorded.
 */
export async function sendPull(
  db: Db,
  client: PublicClient,
  net: CollectorNetwork,
  row: CollectionPull,
  afterBroadcast?: () => void | Promise<void>,
): Promise<{ ok: boolean; gasUsed: bigint }> {
  const spent = (kind: 'collector_allow' | 'subscription_pull', r: { transactionHash: Hex; gasUsed: bigint; effectiveGasPrice: bigint }) =>
    recordGasSpend(db, {
      mode: net.mode,
      chainId: net.chainId,
      kind,
      referenceId: row.id,
      txHash: r.transactionHash,
      gasUsed: r.gasUsed,
      gasPrice: r.effectiveGasPrice,
    });
  if (row.allowTxHash && row.allowRawTx) {
    // A reverted allow is not retried: the pull then reverts (DepositNotAllowed) and the invoice is e-mailed.
    await spent('collector_allow', await landed(client, row.allowTxHash as Hex, row.allowRawTx as Hex));
  }
  const receipt = await landed(client, row.txHash as Hex, row.rawTx as Hex, afterBroadcast);
  await spent('subscription_pull', receipt);
  await db.update(collectionPulls).set({ gasUsed: receipt.gasUsed }).where(eq(collectionPulls.id, row.id));
  return { ok: receipt.status === 'success', gasUsed: receipt.gasUsed };
}
