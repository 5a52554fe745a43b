import { formatUnits } from 'viem';
import type { TronStoredAddress, TronWireAddress } from '@/lib/chain/common/address-brand';
import { toHex41 } from '@/lib/chain/tron/address';
import { TronNodeError, type TronNodeClient } from '@/lib/chain/tron/node-client';
import { estimateTrc20Transfer, isBlackListed, readTronAccount } from '@/lib/chain/tron/resources';

/** Bytes a signed TRC-20 transfer costs in bandwidth (345 measured, docs/tron.md §12), with room for a longer amount. */
const TRANSFER_BYTES = 400;
/** Sun per byte burned once free and staked bandwidth are used (java-tron `getTransactionFee`). */
const SUN_PER_BYTE = 1_000;
/** The estimate's margin: fee_limit caps all energy the call may use, staked included (docs/tron.md §4). */
const ENERGY_MARGIN = 1.2;

export type TronPreflight =
  { kind: 'send'; energy: number; feeLimitSun: number } | { kind: 'wait'; reason: string } | { kind: 'fail'; reason: string };

const sun = (v: bigint) => formatUnits(v, 6);

/** The chain's price of one energy unit in sun (`getEnergyFee`: 100 now); a missing parameter throws. */
async function energyFee(client: TronNodeClient): Promise<number> {
  const out = await client.wallet<{ chainParameter?: { key: string; value?: number }[] }>('getchainparameters');
  const fee = out.chainParameter?.find((p) => p.key === 'getEnergyFee')?.value;
  if (!fee || !Number.isInteger(fee) || fee <= 0) throw new TronNodeError('/wallet/getchainparameters', 'no getEnergyFee');
  return fee;
}

/** The hot wallet's token balance (TriggerConstantContract `balanceOf`); a failed or malformed read throws. */
async function tokenBalance(client: TronNodeClient, token: string, owner: string): Promise<bigint> {
  const out = await client.wallet<{ constant_result?: string[]; transaction?: { ret?: { ret?: string }[] } }>('triggerconstantcontract', {
    owner_address: toHex41(owner),
    contract_address: toHex41(token),
    function_selector: 'balanceOf(address)',
    parameter: toHex41(owner).slice(2).padStart(64, '0'),
  });
  const value = out.constant_result?.[0];
  if (out.transaction?.ret?.[0]?.ret === 'FAILED' || !value || !/^[0-9a-f]{64}$/i.test(value))
    throw new TronNodeError('/wallet/triggerconstantcontract', 'balanceOf gave no answer');
  return BigInt(`0x${value}`);
}

/**
 * What the hot wallet can do about one TRON withdrawal now, from the node's own answers: wait when it lacks the
 * USDT or the energy and TRX the transfer burns (a reason the owner sees), fail when the destination is on
 * USDT's blacklist or the transfer would revert (an answer, believed beside that node's own token balance),
 * else send with a fee_limit covering the estimate. Any failed read throws: nothing is decided from it.
 */
export async function tronPreflight(
  client: TronNodeClient,
  q: { token: string; symbol: string; decimals: number; from: TronStoredAddress; to: TronWireAddress; amount: bigint },
): Promise<TronPreflight> {
  if (await isBlackListed(client, q.token, q.to)) {
    return { kind: 'fail', reason: `The destination ${q.to} is on the ${q.symbol} contract's blacklist: tokens sent there would be frozen.` };
  }
  const balance = await tokenBalance(client, q.token, q.from);
  if (balance < q.amount) {
    return {
      kind: 'wait',
      reason: `Hot wallet holds ${formatUnits(balance, q.decimals)} ${q.symbol}, needs ${formatUnits(q.amount, q.decimals)}; retrying.`,
    };
  }
  const estimate = await estimateTrc20Transfer(client, { token: q.token, from: q.from, to: q.to, amount: q.amount });
  if (estimate.reverted) return { kind: 'fail', reason: `The token transfer would revert (energy used ${estimate.energy}).` };
  const [account, price] = [await readTronAccount(client, q.from), await energyFee(client)];
  const energy = Math.ceil(estimate.energy * ENERGY_MARGIN);
  const stakedLeft = Math.max(0, account.energyLimit - account.energyUsed);
  const bandwidthLeft = Math.max(0, account.netLimit - account.netUsed) + Math.max(0, account.freeNetLimit - account.freeNetUsed);
  const burn = BigInt(Math.max(0, energy - stakedLeft) * price) + BigInt(bandwidthLeft >= TRANSFER_BYTES ? 0 : TRANSFER_BYTES * SUN_PER_BYTE);
  if (!account.activated || account.balanceSun < burn) {
    return {
      kind: 'wait',
      reason: `Hot wallet lacks energy or TRX: the transfer needs ${energy} energy (${stakedLeft} staked left) and ${sun(burn)} TRX to burn, it holds ${sun(account.balanceSun)} TRX; retrying.`,
    };
  }
  return { kind: 'send', energy: estimate.energy, feeLimitSun: energy * price };
}
