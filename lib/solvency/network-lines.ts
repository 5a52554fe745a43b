import type { SolvencyHolding, SolvencyOwed } from '@/db/schema';
import { DEFAULT_ENERGY_LOW_SWEEPS, tokensOf, type EvmNetwork, type Network, type TronNetwork } from '@/lib/chain/network';
import { gasCoinOf, type ChainKey } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import { lineKey, type OwedSnapshot } from './owed-snapshot';
import type { ChainHoldings } from './read-chain';
import { solvencyFamily } from './solvency-families';

/** One line as the job stores it (db/schema/solvency.ts). */
export interface LineFigures {
  kind: 'token' | 'gas';
  mode: Network['mode'];
  chain: ChainKey;
  chainId: number;
  asset: string;
  status: 'ok' | 'shortfall' | 'error';
  blockNumber: number | null;
  held: string | null;
  owed: string;
  difference: string | null;
  owedParts: SolvencyOwed | null;
  holdings: SolvencyHolding[] | null;
  error: string | null;
}

const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((a, v) => a.plus(v), new Decimal(0));

/** What a network's tokens are owed, from the snapshot; `mined` removes what already left the hot wallet. */
export function owedOn(net: Network, asset: string, snap: OwedSnapshot, mined: (hashes: string[]) => boolean, hashes: TxHashes): SolvencyOwed {
  const k = lineKey(net.chainId, asset);
  const inFlight = snap.withdrawals.filter((w) => lineKey(w.chainId, w.token) === k && !mined(hashes.withdrawals.get(w.id) ?? []));
  const held = snap.held
    .filter((h) => lineKey(h.chainId, h.token) === k)
    .map((h) => {
      // Its sweep's fee step already took the fee to the fee wallet: the rest is what is owed now.
      const feeTx = h.settlementId ? hashes.feeTxs.get(h.settlementId) : undefined;
      return feeTx && mined([feeTx]) ? new Decimal(h.amount).minus(h.feeAmount ?? 0) : new Decimal(h.amount);
    });
  return {
    balances: new Decimal(snap.balances.get(k) ?? 0).toFixed(),
    withdrawalsInFlight: sum(inFlight.map((w) => w.netAmount)).toFixed(),
    heldPayments: sum(held).toFixed(),
  };
}

export interface TxHashes {
  withdrawals: Map<string, string[]>;
  feeTxs: Map<string, string>;
}

/** The lines of one network read at one block: a token line per enabled token, and the gas wallet against the floor. */
export function networkLines(net: Network, snap: OwedSnapshot, hashes: TxHashes, chain: ChainHoldings): LineFigures[] {
  const mined = (list: string[]) => list.some((h) => chain.mined.has(h.toLowerCase()));
  const lines: LineFigures[] = tokensOf(net).map((t) => {
    const owedParts = owedOn(net, t.asset, snap, mined, hashes);
    const owed = sum([owedParts.balances, owedParts.withdrawalsInFlight, owedParts.heldPayments]);
    const holdings: SolvencyHolding[] = [{ address: chain.hot, role: 'hot', amount: chain.hotBalances.get(t.asset) ?? '0' }];
    for (const address of snap.depositAddresses.get(lineKey(net.chainId, t.asset)) ?? []) {
      holdings.push({ address, role: 'deposit', amount: chain.depositBalances.get(`${t.asset}:${address}`) ?? '0' });
    }
    const held = sum(holdings.map((h) => h.amount));
    const difference = held.minus(owed);
    return {
      kind: 'token',
      mode: net.mode,
      chain: net.chain,
      chainId: net.chainId,
      asset: t.asset,
      status: difference.isNegative() ? 'shortfall' : 'ok',
      blockNumber: chain.blockNumber,
      held: held.toFixed(),
      owed: owed.toFixed(),
      difference: difference.toFixed(),
      owedParts,
      holdings,
      error: null,
    };
  });
  if (chain.gas) {
    const floor = new Decimal(solvencyFamily(net).gasFloor(net).floor);
    const difference = new Decimal(chain.gas.balance).minus(floor);
    lines.push({
      kind: 'gas',
      mode: net.mode,
      chain: net.chain,
      chainId: net.chainId,
      asset: nativeCoin(net),
      status: difference.isNegative() ? 'shortfall' : 'ok',
      blockNumber: chain.blockNumber,
      held: new Decimal(chain.gas.balance).toFixed(),
      owed: floor.toFixed(),
      difference: difference.toFixed(),
      owedParts: null,
      holdings: [{ address: chain.gas.address, role: 'gas', amount: chain.gas.balance }],
      error: null,
    });
  }
  if (chain.energy) {
    const floor = new Decimal(solvencyFamily(net).gasFloor(net).floor);
    const difference = new Decimal(chain.energy.sweeps).minus(floor);
    lines.push({
      kind: 'gas',
      mode: net.mode,
      chain: net.chain,
      chainId: net.chainId,
      asset: ENERGY_ASSET,
      status: difference.isNegative() ? 'shortfall' : 'ok',
      blockNumber: chain.blockNumber,
      held: String(chain.energy.sweeps),
      owed: floor.toFixed(),
      difference: difference.toFixed(),
      owedParts: null,
      holdings: [{ address: chain.energy.address, role: 'gas', amount: String(chain.energy.sweeps) }],
      error: null,
    });
  }
  return lines;
}

/** TRON's gas line counts sweeps the energy wallet can pay with delegated energy, against a floor in sweeps. */
export const ENERGY_ASSET = 'sweeps';
const energyFloor = (net: TronNetwork) => net.energyLowSweeps ?? DEFAULT_ENERGY_LOW_SWEEPS;

export const nativeCoin = (net: Network) => gasCoinOf(net.chain);

/** What a network's gas wallet is measured in on the solvency page, and its floor (the low-funds alert). */
export interface GasFloor {
  asset: string;
  floor: string;
}

/** The gas line of an EVM network: the gas wallet's coin against GAS_WALLET_LOW (solvency-families.ts). */
export const coinGasFloor = (net: EvmNetwork): GasFloor => ({ asset: nativeCoin(net), floor: new Decimal(net.gasWalletLow ?? '0.05').toFixed() });

/** The gas line of a TRON network: sweeps the energy wallet can pay against ENERGY_LOW_SWEEPS (solvency-families.ts). */
export const energyGasFloor = (net: TronNetwork): GasFloor => ({ asset: ENERGY_ASSET, floor: String(energyFloor(net)) });

/** The lines of a network whose read failed: no held figure, no difference (a failed read is never a zero). */
export function errorLines(net: Network, snap: OwedSnapshot | null, error: string): LineFigures[] {
  const line = (kind: 'token' | 'gas', asset: string, owed: string): LineFigures => ({
    kind,
    mode: net.mode,
    chain: net.chain,
    chainId: net.chainId,
    asset,
    status: 'error',
    blockNumber: null,
    held: null,
    owed,
    difference: null,
    owedParts: null,
    holdings: null,
    error,
  });
  const lines = tokensOf(net).map((t) => line('token', t.asset, new Decimal(snap?.balances.get(lineKey(net.chainId, t.asset)) ?? 0).toFixed()));
  if (net.gasWalletKey) {
    const gas = solvencyFamily(net).gasFloor(net);
    lines.push(line('gas', gas.asset, gas.floor));
  }
  return lines;
}
