import { parseUnits, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import type { Invoice, Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { ReadyNetwork } from '@/lib/chain/network';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { toHex41 } from '@/lib/chain/tron/address';
import { tronDepositKey } from '@/lib/chain/tron/deposit-key';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { finishSettlement } from './finish-settlement';
import { planSweep } from './plan-sweep';
import { planTronSweep, type TronSweepParties } from './tron/plan-tron-sweep';
import type { TronSweepHooks } from './tron/send-tron-step';
import { sweepTron } from './tron/sweep-tron';

type TronSettleNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'hotWalletKey'>;

const tronKey = (key: Hex) => key.slice(2);

/**
 * A TRON settlement (settleInvoice's branch for the `tron` family): below the sweep minimum credited and left
 * in place (plan-sweep.ts, reading the TRC-20 balance), else planned (tron/plan-tron-sweep.ts), swept
 * (tron/sweep-tron.ts) and credited in one transaction (finishSettlement), as on EVM.
 */
export async function settleTronInvoice(db: Db, net: TronSettleNetwork, s: Settlement, invoice: Invoice, hooks: TronSweepHooks) {
  const client = tronClientOf(net, 10_000);
  const deposit = tronDepositKey(net.depositMnemonic, invoice.addressIndex);
  // The key must be the invoice's address: a mnemonic changed under running invoices would sweep someone else's.
  if (deposit.hex !== invoice.depositAddress)
    throw new Error(`settlement ${s.id}: index ${invoice.addressIndex} does not derive ${invoice.depositAddress}`);
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
    energyWallet: toHex41(privateKeyToAddress(net.gasWalletKey)),
    hot: toHex41(privateKeyToAddress(net.hotWalletKey)),
    allowTrxBurn: net.allowTrxBurn === true,
    burnVariable: `${net.mode === 'live' ? 'LIVE' : 'TEST'}_TRON_ALLOW_TRX_BURN`,
  };
  const plan = await planTronSweep(db, parties, s, total, carried);
  await sweepTron(db, { ...parties, depositKey: deposit.privateKey, energyKey: tronKey(net.gasWalletKey) }, s, plan, hooks);
  return finishSettlement(db, s.id);
}
