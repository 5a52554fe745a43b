import { formatUnits, parseUnits } from 'viem';
import { setNetworkOverride } from '@/lib/chain/network';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { freshTronAddress, payFromNewTronWallet, usdtOf } from '../tron-lane-helpers';
import { startTronRail } from '../tron-rail';
import type { MatrixChainStarter } from './matrix-chain';

/** TRON in the matrix: the stand-in with its USDT, TRON's default costs, a funded hot wallet; a block per wait while settling. */
export const startTronMatrixChain: MatrixChainStarter = async (chain, assets) => {
  if (chain !== 'TRON' || assets.some((a) => a !== 'USDT'))
    throw new Error(`the TRON stand-in runs TRON:USDT only, not ${chain} ${assets.join(',')}`);
  const rail = await startTronRail();
  const { minWithdrawal, networkFee, sweepMinimum, sweepFee } = NETWORK_COST_DEFAULTS.TRON;
  const net = Object.freeze({ ...rail.net, minWithdrawal, networkFee, sweepMinimum, sweepFee });
  setNetworkOverride('test', net);
  const decimals = CHAIN_SPECS.TRON.tokens.USDT!.decimals;
  await rail.node.mintUsdt(rail.node.keys.hot.address, parseUnits('1000000', decimals));
  return {
    chain,
    net,
    confirmations: net.confirmations,
    sweptFeeTo: 'hot',
    wallets: { hot: rail.node.keys.hot.address, fee: rail.node.keys.fee.address },
    pay: (to, _asset, amount) => payFromNewTronWallet(rail, to, parseUnits(amount, decimals)),
    mine: (blocks) => rail.node.mine(blocks),
    held: async (address) => formatUnits(await usdtOf(rail, address), decimals),
    freshAddress: freshTronAddress,
    settleHooks: { onWait: () => rail.node.mine(1) },
    stop: () => rail.stop(),
  };
};
