import { formatUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { DEFAULT_ENERGY_LOW_SWEEPS, tokensOf, type TronNetwork } from '@/lib/chain/network';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { toBase58, toHex41 } from '@/lib/chain/tron/address';
import { readTronAccount } from '@/lib/chain/tron/resources';
import { ENERGY_WALLET_RESERVE_SUN, readTronStake, sweepsAffordable } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { log } from '@/lib/log';
import { factsOf, readError, withTimeout, READ_TIMEOUT_MS, type GasWallet, type HotWallet, type NetworkWallets } from './read-network-wallets';

const trx = (sun: bigint) => formatUnits(sun, 6);

/**
 * readNetworkWallets for a TRON network: the energy wallet's TRX, its stake for energy and how many sweeps
 * that pays with delegated energy (low below `<MODE>_TRON_ENERGY_LOW_SWEEPS`), and the hot wallet's TRX and
 * USDT. Any failed or slow read makes the whole network unreadable, never 0.
 */
export async function readTronWallets(net: TronNetwork, timeoutMs = READ_TIMEOUT_MS): Promise<NetworkWallets> {
  const facts = factsOf(net);
  const gasHex = net.gasWalletKey ? toHex41(privateKeyToAddress(net.gasWalletKey)) : null;
  const hotHex = net.hotWalletKey ? toHex41(privateKeyToAddress(net.hotWalletKey)) : null;
  if (!net.rpcUrl || (!gasHex && !hotHex)) return { ...facts, state: 'not_configured' };
  const client = tronClientOf(net, timeoutMs);
  const lowAtSweeps = net.energyLowSweeps ?? DEFAULT_ENERGY_LOW_SWEEPS;

  const readGas = async (hex: string): Promise<GasWallet> => {
    const stake = await readTronStake(client, hex);
    const sweeps = sweepsAffordable(stake, ENERGY_WALLET_RESERVE_SUN);
    return {
      address: toBase58(hex),
      balance: trx(stake.balanceSun),
      low: sweeps < lowAtSweeps,
      energy: {
        stakedTrx: trx(stake.stakedEnergySun),
        delegatableTrx: trx(stake.delegatableEnergySun),
        energyPerTrx: stake.energyPerTrx,
        sweeps,
        lowAtSweeps,
      },
    };
  };
  const readHot = async (hex: string): Promise<HotWallet> => {
    const account = await readTronAccount(client, hex);
    const tokens = [];
    for (const t of tokensOf(net)) tokens.push({ asset: t.asset, amount: formatUnits(await readTrc20Balance(client, t.address, hex), t.decimals) });
    return { address: toBase58(hex), balance: trx(account.balanceSun), tokens };
  };

  try {
    const [gas, hot] = await withTimeout(Promise.all([gasHex && readGas(gasHex), hotHex && readHot(hotHex)]), timeoutMs);
    return { ...facts, state: 'ok', gas: gas || null, hot: hot || null };
  } catch (err) {
    const error = readError(err);
    log.warn('console wallet balance read failed', { mode: net.mode, chain: net.chain, error });
    return { ...facts, state: 'unreadable', error, gasAddress: gasHex && toBase58(gasHex), hotAddress: hotHex && toBase58(hotHex) };
  }
}
