import { and, eq, inArray } from 'drizzle-orm';
import { parseUnits, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { settlements, settlementTxs, type Invoice, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { ReadyNetwork, TronNetwork } from '@/lib/chain/network';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { toHex41 } from '@/lib/chain/tron/address';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { tronDepositKey } from '@/lib/chain/tron/deposit-key';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { refuseOrphanedSweep } from './early-sweep';
import { finishSettlement } from './finish-settlement';
import { planSweep } from './plan-sweep';
import { planTronSweep, type TronSweepParties } from './tron/plan-tron-sweep';
import type { TronSweepHooks } from './tron/send-tron-step';
import { sweepTron } from './tron/sweep-tron';

type TronSettleNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'hotWalletKey', TronNetwork>;

const tronKey = (key: Hex) => key.slice(2);

/**
 * A TRON settlement (settleInvoice's branch for the `tron` family): below the sweep minimum credited and left
 * in place (plan-sweep.ts, reading the TRC-20 balance), else planned (tron/plan-tron-sweep.ts), swept up to the
 * solidified custody transfer (tron/sweep-tron.ts) and credited in one transaction (finishSettlement), as on EVM.
 * The delegated energy comes back afterwards (tron/reclaim-energy.ts), off the payment's path.
 */
export async function settleTronInvoice(db: Db, net: TronSettleNetwork, s: Settlement, invoice: Invoice, hooks: TronSweepHooks) {
  const client = tronClientOf(net, 10_000);
  const deposit = tronDepositKey(net.depositMnemonic, invoice.addressIndex);
  // The key must be the invoice's address: a mnemonic changed under running invoices would sweep someone else's.
  if (deposit.hex !== invoice.depositAddress)
    throw new Error(`settlement ${s.id}: index ${invoice.addressIndex} does not derive ${invoice.depositAddress}`);
  s = await afterReclaim(db, s);
  // An early sweep whose payment a reorg took: nothing is planned or signed for it (a custody transfer already
  // recorded is followed to its end first: it may still land if the new branch holds the payment again).
  const custody = await db
    .select({ id: settlementTxs.id })
    .from(settlementTxs)
    .where(and(eq(settlementTxs.settlementId, s.id), eq(settlementTxs.step, 'custody')));
  if (!custody.length) await refuseOrphanedSweep(db, s);
  const token = toHex41(net.tokenAddress);
  const carried = await planSweep(db, net, s, () => readTrc20Balance(client, token, deposit.hex));
  if (!carried) return finishSettlement(db, s.id, { sweepDeferred: true });
  const units = (v: string | undefined) => parseUnits(v ?? '0', net.decimals);
  // One transfer of everything to the hot wallet (see sweep-tron.ts): fee, net and what dust it carries along.
  const total = units(s.feeAmount) + units(s.netAmount) + units(carried.fee) + units(carried.net);
  const parties: TronSweepParties = {
    client,
    chainId: net.chainId,
    token,
    deposit: deposit.hex,
    energyWallet: TRON_ADDRESS_CODEC.storedForm(privateKeyToAddress(net.gasWalletKey)),
    hot: TRON_ADDRESS_CODEC.storedForm(privateKeyToAddress(net.hotWalletKey)),
    allowTrxBurn: net.allowTrxBurn === true,
    burnVariable: `${net.mode === 'live' ? 'LIVE' : 'TEST'}_TRON_ALLOW_TRX_BURN`,
    // Before a custody transfer that cannot land as recorded is signed again (sweep-tron.ts).
    beforeResign: () => refuseOrphanedSweep(db, s),
  };
  const plan = await planTronSweep(db, parties, s, total, carried);
  await sweepTron(db, { ...parties, depositKey: deposit.privateKey, energyKey: tronKey(net.gasWalletKey) }, s, plan, hooks);
  return finishSettlement(db, s.id);
}

/**
 * A failed settlement retried after the janitor took its energy back (its `undelegate` done): the delegation is
 * gone, so the sweep is planned afresh (a new plan, activation judged again, a new delegation). The old rows go;
 * what they burned stays in gas_spend. The custody transfer is never among them: it would have credited.
 */
async function afterReclaim(db: Db, s: Settlement): Promise<Settlement> {
  const reclaimed = await db
    .select({ id: settlementTxs.id })
    .from(settlementTxs)
    .where(and(eq(settlementTxs.settlementId, s.id), eq(settlementTxs.step, 'undelegate')));
  if (!reclaimed.length) return s;
  return db.transaction(async (tx) => {
    await tx
      .delete(settlementTxs)
      .where(and(eq(settlementTxs.settlementId, s.id), inArray(settlementTxs.step, ['activate', 'stake', 'delegate', 'gas_topup', 'undelegate'])));
    const [fresh] = await tx.update(settlements).set({ gasPlan: null }).where(eq(settlements.id, s.id)).returning();
    return fresh!;
  });
}
