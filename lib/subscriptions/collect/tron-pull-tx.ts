import { and, eq, sql } from 'drizzle-orm';
import { parseUnits, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { collectionPulls, type CollectionPull } from '@/db/schema';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { toBase58, toHex41 } from '@/lib/chain/tron/address';
import { broadcastTronTx, lookupTronTx, TronBroadcastError } from '@/lib/chain/tron/broadcast';
import { isSafelyExpired } from '@/lib/chain/tron/expiry';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { readTronAccount } from '@/lib/chain/tron/resources';
import { buildContractCall, signTronTx, type SignedTronTx } from '@/lib/chain/tron/transactions';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { CollectorNetwork } from './collector-network';
import type { PullProgress, PullRequest } from './pull-ops';

/** Minutes, not TronWeb's 60 s: a resumed pull rebroadcasts the same bytes this long before it may be signed again. */
const LIFETIME_MS = 5 * 60_000;
/**
 * The most energy a pull uses, with a margin: 136,584 into a fresh deposit address on the stand-in with an unlimited
 * allowance, more with a finite one (the checkout's 12 periods: Tether writes the allowance down, and 150,000 ran out
 * of energy in e2e/tron-subscription-autocollect.spec.ts).
 */
const PULL_ENERGY = 200_000;
/** fee_limit caps all the energy a call may use, staked included (docs/tron.md §4): 100 sun per energy of PULL_ENERGY. */
const PULL_FEE_LIMIT_SUN = PULL_ENERGY * 100;
const ALLOW_FEE_LIMIT_SUN = 10_000_000;
const COLLECT = 'collect(bytes32,address,uint256,address)';
const ALLOW = 'setDepositAllowed(address,bool)';

const tronKey = (key: Hex) => key.replace(/^0x/, '');
const accountOf = (key: Hex) => toHex41(privateKeyToAccount(key).address);

async function signCall(
  client: TronNodeClient,
  key: Hex,
  q: { contract: string; fn: string; params: { type: string; value: unknown }[]; rawParameter?: string; feeLimitSun: number },
) {
  const { head } = await readTronHeads(client);
  const tx = await buildContractCall({ ...q, from: accountOf(key), ref: head, lifetimeMs: LIFETIME_MS });
  return signTronTx(tx, tronKey(key), head.number);
}

/** The recorded transaction as broadcastTronTx and isSafelyExpired take it. */
function signedOf(row: CollectionPull): SignedTronTx & { refBlockHash: string } {
  const tx = JSON.parse(row.rawTx!);
  return {
    txId: row.txHash!,
    tx,
    expiration: row.expiresAt!.getTime(),
    refBlockNumber: row.refBlockNumber!,
    refBlockHash: tx.raw_data.ref_block_hash,
  };
}

/** Refusals that are no verdict (expired at the head, or the reference block replaced): only the solidified chain proves it never landed. */
const noVerdict = (err: unknown) => err instanceof TronBroadcastError && (err.code === 'TRANSACTION_EXPIRATION_ERROR' || err.code === 'TAPOS_ERROR');

/**
 * Records the period's pull on TRON before anything is broadcast: the energy wallet's `collect` (and the admin's
 * `setDepositAllowed` of the deposit address when needed), signed by TronWeb against the head with a 5-minute
 * lifetime, stored with its txID, expiration and reference block in the attempt row (its unique index refuses a
 * second attempt: null). The energy wallet must hold a pull's energy staked unless burning TRX is allowed
 * (`<MODE>_TRON_ALLOW_TRX_BURN`, as for sweeps): otherwise this throws and the next run tries again.
 */
export async function recordTronPull(db: Db, client: TronNodeClient, net: CollectorNetwork, p: PullRequest): Promise<CollectionPull | null> {
  const operator = accountOf(net.operatorKey);
  if (!net.allowTrxBurn) {
    const acct = await readTronAccount(client, operator);
    const free = acct.energyLimit - acct.energyUsed;
    if (free < PULL_ENERGY)
      throw new Error(`the energy wallet has ${free} energy staked free, a pull needs up to ${PULL_ENERGY}, and burning TRX is not allowed`);
  }
  const to = toBase58(p.depositAddress);
  const allow =
    p.needsAllow && net.adminKey
      ? await signCall(client, net.adminKey, {
          contract: net.collectorAddress,
          fn: ALLOW,
          params: [
            { type: 'address', value: to },
            { type: 'bool', value: true },
          ],
          feeLimitSun: ALLOW_FEE_LIMIT_SUN,
        })
      : null;
  const pull = await signCall(client, net.operatorKey, {
    contract: net.collectorAddress,
    fn: COLLECT,
    params: [
      { type: 'bytes32', value: p.permissionId },
      { type: 'address', value: toBase58(p.payer) },
      { type: 'uint256', value: parseUnits(p.amount, net.decimals).toString() },
      { type: 'address', value: to },
    ],
    feeLimitSun: PULL_FEE_LIMIT_SUN,
  });
  const [row] = await db
    .insert(collectionPulls)
    .values({
      id: newId('chainTx'),
      subscriptionId: p.subscriptionId,
      periodStart: p.periodStart,
      invoiceId: p.invoiceId,
      status: 'signed',
      amount: p.amount,
      depositAddress: toHex41(p.depositAddress),
      chainId: net.chainId,
      fromAddress: operator,
      txHash: pull.txId,
      rawTx: JSON.stringify(pull.tx),
      expiresAt: new Date(pull.expiration),
      refBlockNumber: pull.refBlockNumber,
      ...(allow ? { allowFrom: accountOf(net.adminKey!), allowTxHash: allow.txId, allowRawTx: JSON.stringify(allow.tx) } : {}),
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/**
 * The admin's allow is in a block (then the pull may go: a failed allow makes the pull revert, e-mailed, as on EVM).
 * Not known: its bytes broadcast again; expired, it is signed again at once: allowing an address twice does no harm.
 */
async function allowLanded(db: Db, client: TronNodeClient, net: CollectorNetwork, row: CollectionPull): Promise<boolean> {
  const look = async (txId: string) => {
    const found = await lookupTronTx(client, txId);
    if (found.state === 'unknown') return false;
    const { energyTotal, fee } = found.info;
    await recordGasSpend(db, {
      mode: net.mode,
      chainId: net.chainId,
      kind: 'collector_allow',
      referenceId: row.id,
      txHash: txId,
      gasUsed: BigInt(energyTotal),
      cost: fee,
    });
    return true;
  };
  if (await look(row.allowTxHash!)) return true;
  const tx = JSON.parse(row.allowRawTx!);
  try {
    await broadcastTronTx(client, { txId: row.allowTxHash!, tx, expiration: tx.raw_data.expiration, refBlockNumber: 0 });
    return look(row.allowTxHash!);
  } catch (err) {
    if (!noVerdict(err)) throw err;
  }
  const again = await signCall(client, net.adminKey!, {
    contract: net.collectorAddress,
    fn: ALLOW,
    params: [
      { type: 'address', value: toBase58(row.depositAddress) },
      { type: 'bool', value: true },
    ],
    feeLimitSun: ALLOW_FEE_LIMIT_SUN,
  });
  const [moved] = await db
    .update(collectionPulls)
    .set({ allowTxHash: again.txId, allowRawTx: JSON.stringify(again.tx) })
    .where(and(eq(collectionPulls.id, row.id), eq(collectionPulls.allowTxHash, row.allowTxHash!)))
    .returning();
  if (moved) await broadcastTronTx(client, again);
  return false;
}

/**
 * One step of a recorded TRON pull, without nonces (docs/tron.md §5): solidified → its outcome (and the TRX it
 * burned into gas_spend); in a block not solidified yet → in flight; unknown → the same bytes broadcast again, until
 * isSafelyExpired proves they can never be mined: only then is the same call signed again (the old txID kept in
 * replaced_tx_hashes; a concurrent resume loses the guarded update and sends nothing). The contract's period cap stays
 * the second guard. A failed read or broadcast throws and leaves the row as it is.
 */
export async function advanceTronPull(
  db: Db,
  client: TronNodeClient,
  net: CollectorNetwork,
  row: CollectionPull,
  afterBroadcast?: () => void | Promise<void>,
): Promise<PullProgress> {
  if (row.allowTxHash && !(await allowLanded(db, client, net, row))) return 'in_flight';
  const found = await lookupTronTx(client, row.txHash!);
  if (found.state === 'solidified') {
    const energy = BigInt(found.info.energyTotal);
    await recordGasSpend(db, {
      mode: net.mode,
      chainId: net.chainId,
      kind: 'subscription_pull',
      referenceId: row.id,
      txHash: row.txHash!,
      gasUsed: energy,
      cost: found.info.fee,
    });
    await db.update(collectionPulls).set({ gasUsed: energy }).where(eq(collectionPulls.id, row.id));
    return found.info.ok ? 'succeeded' : 'reverted';
  }
  if (found.state === 'mined') return 'in_flight';
  const signed = signedOf(row);
  if (await isSafelyExpired(signed, client)) {
    const data = (signed.tx.raw_data.contract[0]!.parameter.value as { data: string }).data;
    const again = await signCall(client, net.operatorKey, {
      contract: net.collectorAddress,
      fn: COLLECT,
      params: [],
      rawParameter: data.slice(8),
      feeLimitSun: PULL_FEE_LIMIT_SUN,
    });
    const [moved] = await db
      .update(collectionPulls)
      .set({
        txHash: again.txId,
        rawTx: JSON.stringify(again.tx),
        expiresAt: new Date(again.expiration),
        refBlockNumber: again.refBlockNumber,
        replacedTxHashes: sql`coalesce(${collectionPulls.replacedTxHashes}, '{}') || array[${row.txHash}]::text[]`,
      })
      .where(and(eq(collectionPulls.id, row.id), eq(collectionPulls.txHash, row.txHash!)))
      .returning();
    if (!moved) return 'in_flight';
    await broadcastTronTx(client, again);
  } else {
    try {
      await broadcastTronTx(client, signed);
    } catch (err) {
      if (!noVerdict(err)) throw err;
      return 'in_flight';
    }
  }
  await afterBroadcast?.();
  return 'in_flight';
}
