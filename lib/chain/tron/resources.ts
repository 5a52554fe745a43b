import { decodeAbiParameters } from 'viem';
import { z } from 'zod';
import type { TronAddress } from '../common/address-brand';
import { toEvm, toHex41 } from './address';
import { TronNodeError, type TronNodeClient } from './node-client';
import { isEmptyAnswer } from './parse';

export interface TronAccountState {
  /** False for an account that has never received TRX (not activated): it cannot send anything. */
  activated: boolean;
  balanceSun: bigint;
  energyLimit: number;
  energyUsed: number;
  /** Staked/delegated bandwidth. */
  netLimit: number;
  netUsed: number;
  freeNetLimit: number;
  freeNetUsed: number;
  /** Energy units one staked TRX gives today (TotalEnergyLimit / TotalEnergyWeight). */
  energyPerTrx: number;
  /** Bandwidth bytes a day one staked TRX gives today (TotalNetLimit / TotalNetWeight). */
  bytesPerTrx: number;
}

const account = z.object({ balance: z.number().int().nonnegative().default(0), address: z.string() });
const resource = z.object({
  freeNetUsed: z.number().default(0),
  freeNetLimit: z.number().default(0),
  NetUsed: z.number().default(0),
  NetLimit: z.number().default(0),
  EnergyUsed: z.number().default(0),
  EnergyLimit: z.number().default(0),
  TotalEnergyLimit: z.number().default(0),
  TotalEnergyWeight: z.number().default(0),
  TotalNetLimit: z.number().default(0),
  TotalNetWeight: z.number().default(0),
});

/** Balance, activation and resources of an account (two reads at the head). */
export async function readTronAccount(client: TronNodeClient, addr: string): Promise<TronAccountState> {
  const address = toHex41(addr);
  const acc = await client.wallet('getaccount', { address });
  if (isEmptyAnswer(acc)) {
    return {
      activated: false,
      balanceSun: 0n,
      energyLimit: 0,
      energyUsed: 0,
      netLimit: 0,
      netUsed: 0,
      freeNetLimit: 0,
      freeNetUsed: 0,
      energyPerTrx: 0,
      bytesPerTrx: 0,
    };
  }
  const a = account.parse(acc);
  if (a.address.toLowerCase() !== address) throw new TronNodeError('/wallet/getaccount', `asked for ${address}, got ${a.address}`);
  const r = resource.parse(await client.wallet('getaccountresource', { address }));
  return {
    activated: true,
    balanceSun: BigInt(a.balance),
    energyLimit: r.EnergyLimit,
    energyUsed: r.EnergyUsed,
    netLimit: r.NetLimit,
    netUsed: r.NetUsed,
    freeNetLimit: r.freeNetLimit,
    freeNetUsed: r.freeNetUsed,
    energyPerTrx: r.TotalEnergyWeight ? r.TotalEnergyLimit / r.TotalEnergyWeight : 0,
    bytesPerTrx: r.TotalNetWeight ? r.TotalNetLimit / r.TotalNetWeight : 0,
  };
}

const constant = z.object({
  result: z.object({ result: z.boolean().optional(), code: z.string().optional(), message: z.string().optional() }),
  constant_result: z.array(z.string()).optional(),
  energy_used: z.number().optional(),
  transaction: z.object({ ret: z.array(z.object({ ret: z.string().optional() })).optional() }).optional(),
});

async function constantCall(client: TronNodeClient, q: { token: string; owner: string; selector: string; parameter: string }) {
  const raw = await client.wallet('triggerconstantcontract', {
    owner_address: toHex41(q.owner),
    contract_address: toHex41(q.token),
    function_selector: q.selector,
    parameter: q.parameter,
  });
  const out = constant.parse(raw);
  const failed = out.result.result !== true || out.transaction?.ret?.[0]?.ret === 'FAILED';
  return { out, failed };
}

const word = (addr: string) => toEvm(addr).slice(2).padStart(64, '0');

/** A token contract's freeze list (`<fn>(address) returns (bool)`, lib/config/rails.ts) read from the chain; a revert or odd answer throws. */
export async function readFreezeList(client: TronNodeClient, token: string, fn: string, addr: string): Promise<boolean> {
  const { out, failed } = await constantCall(client, { token, owner: addr, selector: `${fn}(address)`, parameter: word(addr) });
  const value = out.constant_result?.[0];
  if (failed || !value || !/^[0-9a-f]{64}$/i.test(value))
    throw new TronNodeError('/wallet/triggerconstantcontract', `${fn} gave no answer (${out.result.message ?? out.result.code ?? 'no result'})`);
  return BigInt(`0x${value}`) !== 0n;
}

/** Tether's blacklist (`isBlackListed(address)`) read from the token contract; a revert or odd answer throws. */
export const isBlackListed = (client: TronNodeClient, token: string, addr: string) => readFreezeList(client, token, 'isBlackListed', addr);

/**
 * Energy a TRC-20 transfer would burn now (`energy_used` of a constant call, including the
 * contract's dynamic-energy penalty). A revert is an answer (`reverted: true`), not an estimate.
 */
export async function estimateTrc20Transfer(client: TronNodeClient, q: { token: string; from: string; to: TronAddress; amount: bigint }) {
  const parameter = word(q.to) + q.amount.toString(16).padStart(64, '0');
  const { out, failed } = await constantCall(client, { token: q.token, owner: q.from, selector: 'transfer(address,uint256)', parameter });
  if (out.energy_used === undefined) throw new TronNodeError('/wallet/triggerconstantcontract', 'no energy_used in the answer');
  return { energy: out.energy_used, reverted: failed };
}

/**
 * A TRC-20 contract's decimals() and symbol() (constant calls at the head), for the rail check. null
 * for a call the chain answered with "no contract there" or a revert (an answer about the contract); a
 * node that did not answer throws (never a pass).
 */
export async function readTrc20Meta(client: TronNodeClient, token: string): Promise<{ decimals: number | null; symbol: string | null }> {
  const call = async (selector: string) => {
    // The contract itself as the caller: any existing account may make a constant call.
    const raw = await client.wallet('triggerconstantcontract', {
      owner_address: toHex41(token),
      contract_address: toHex41(token),
      function_selector: selector,
      parameter: '',
    });
    const out = constant.parse(raw);
    const message = out.result.message ? Buffer.from(out.result.message, 'hex').toString('utf8') : '';
    if (out.result.code === 'CONTRACT_VALIDATE_ERROR' || /revert/i.test(message) || out.transaction?.ret?.[0]?.ret === 'FAILED') return null;
    if (out.result.result !== true)
      throw new TronNodeError('/wallet/triggerconstantcontract', `${selector} gave no answer (${out.result.code ?? 'no result'} ${message})`);
    const value = out.constant_result?.[0];
    return value && /^[0-9a-f]+$/i.test(value) ? (`0x${value}` as const) : null;
  };
  const [decimals, symbol] = [await call('decimals()'), await call('symbol()')];
  return {
    decimals: decimals && decimals.length === 66 ? Number(BigInt(decimals)) : null,
    symbol: symbol ? decodeSymbol(symbol) : null,
  };
}

/** An ABI string, or the bytes32 some older tokens return; null when it is neither. */
function decodeSymbol(data: `0x${string}`): string | null {
  try {
    return decodeAbiParameters([{ type: 'string' }], data)[0];
  } catch {
    return data.length === 66 ? Buffer.from(data.slice(2), 'hex').toString('utf8').replace(/\0+$/, '') : null;
  }
}
