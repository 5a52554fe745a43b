import { eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, parseUnits, type Address, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { settlements, type EvmSweepPlan, type Invoice, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import { publicClient } from '@/lib/chain/clients';
import type { EvmAddress } from '@/lib/chain/common/address-brand';
import type { EvmNetwork } from '@/lib/chain/network';
import { depositAccount } from '@/lib/chain/deposit-account';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { confirmRecordedTx, findRecordedTx, sendRecordedTx } from '@/lib/chain/send-recorded-tx';
import { finishSettlement } from './finish-settlement';
import { planSweep, type Carried } from './plan-sweep';
import { storedSweepPlan } from './common/stored-sweep-plan';
import type { SettleHooks, SettleNetwork } from './settle-invoice';

type GasPlan = EvmSweepPlan;

// Estimates plus 10 percent: the top-up covers these limits and no more.
const withMargin = (gas: bigint) => (gas * 11n) / 10n + 1n;

async function gasPlan(
  db: Db,
  client: PublicClient,
  s: Settlement,
  token: Address,
  deposit: Address,
  moves: Move[],
  carried: Carried,
): Promise<GasPlan> {
  const stored = storedSweepPlan(s, 'evm');
  if (stored) return stored;
  const estimate = async (m: Move | undefined) =>
    m
      ? withMargin(
          await client.estimateContractGas({ address: token, abi: erc20Abi, functionName: 'transfer', args: [m.to, m.units], account: deposit }),
        )
      : 0n;
  const plan = {
    gasPrice: (await client.getGasPrice()).toString(),
    feeGas: (await estimate(moves.find((m) => m.step === 'fee'))).toString(),
    custodyGas: (await estimate(moves.find((m) => m.step === 'custody'))).toString(),
    carried,
  };
  await db.update(settlements).set({ gasPlan: plan }).where(eq(settlements.id, s.id));
  return plan;
}

interface Move {
  step: 'fee' | 'custody';
  /** The sweep's destination: the fee wallet or the hot wallet, an EVM account (the codec made it). */
  to: EvmAddress;
  units: bigint;
}

/**
 * An EVM settlement (settleInvoice's work for the `evm` family): top up the deposit
 * address with just the gas coin (BNB, ETH, POL…) its remaining transfers need, send the fee to the fee wallet
 * and the rest to the custody wallet, each step recorded before broadcast (see sendRecordedTx), then
 * finishSettlement credits the ledger, moves the invoice and writes invoice.paid_out in one transaction.
 */
export async function settleEvmInvoice(db: Db, net: SettleNetwork<EvmNetwork>, s: Settlement, invoice: Invoice, hooks: SettleHooks) {
  const client = publicClient(net.rpcUrl);
  const deposit: PrivateKeyAccount = depositAccount(net.depositMnemonic, invoice.addressIndex);
  // Too little to be worth its sweep: left in place, not credited until a later sweep carries it (plan-sweep.ts).
  const carried = await planSweep(db, net, s, () =>
    client.readContract({ address: net.tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [deposit.address] }),
  );
  if (!carried) return finishSettlement(db, s.id, { sweepDeferred: true });
  // The fee on what the merchant may give back (heldFee) goes to the hot wallet with the net: a refund returns it from there.
  // A charged sweep (below the minimum) moves everything there in one transfer: a second one would cost what the fee covers.
  const units = (v: string | undefined) => parseUnits(v ?? '0', net.decimals);
  const all = units(s.feeAmount) + units(s.netAmount) + units(carried.fee) + units(carried.net);
  const held = carried.charged ? all - units(s.netAmount) - units(carried.net) : units(s.heldFee) + units(carried.heldFee);
  const planned: Move[] = [
    { step: 'fee', to: net.feeWallet, units: units(s.feeAmount) + units(carried.fee) - held },
    {
      step: 'custody',
      to: EVM_ADDRESS_CODEC.parse(privateKeyToAccount(net.hotWalletKey).address),
      units: units(s.netAmount) + units(carried.net) + held,
    },
  ];
  const moves = planned.filter((m) => m.units > 0n);
  const plan = await gasPlan(db, client, s, net.tokenAddress, deposit.address, moves, carried);
  const gasPrice = BigInt(plan.gasPrice);
  const gasOf = (m: Move) => BigInt(m.step === 'fee' ? plan.feeGas : plan.custodyGas);

  const topUp = await findRecordedTx(db, s.id, 'gas_topup');
  if (topUp) {
    await confirmRecordedTx(db, client, topUp);
  } else {
    // Only the transfers not yet recorded still need gas (a resumed run has paid for the others).
    const pending: Move[] = [];
    for (const m of moves) if (!(await findRecordedTx(db, s.id, m.step))) pending.push(m);
    const needed = pending.reduce((sum, m) => sum + gasOf(m) * gasPrice, 0n);
    const balance = await client.getBalance({ address: deposit.address });
    if (balance < needed) {
      await sendRecordedTx(db, client, {
        settlementId: s.id,
        step: 'gas_topup',
        chainId: net.chainId,
        account: privateKeyToAccount(net.gasWalletKey),
        to: deposit.address,
        value: needed - balance,
        gas: 21_000n,
        gasPrice,
        recordValue: (needed - balance).toString(),
        sharedSender: true,
        beforeBroadcast: () => hooks.beforeBroadcast?.('gas_topup', s.id),
      });
    }
  }
  await hooks.afterStep?.('gas_topup', s.id);

  for (const m of moves) {
    await sendRecordedTx(db, client, {
      settlementId: s.id,
      step: m.step,
      chainId: net.chainId,
      account: deposit,
      to: net.tokenAddress,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [m.to, m.units] }),
      value: 0n,
      gas: gasOf(m),
      gasPrice,
      recordValue: m.units.toString(),
      sharedSender: false,
      beforeBroadcast: () => hooks.beforeBroadcast?.(m.step, s.id),
    });
    await hooks.afterStep?.(m.step, s.id);
  }
  return finishSettlement(db, s.id);
}
