import { createWalletClient, erc20Abi, formatUnits, getAddress, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { setNetworkOverride } from '@/lib/chain/network';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { startAnvil } from '../anvil';
import { matrixNetwork, type MatrixChainStarter } from './matrix-chain';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/** An EVM network of the matrix: anvil with the network's tokens at their real decimals, its default costs, a funded hot wallet. */
export const startEvmMatrixChain: MatrixChainStarter = async (chain, assets) => {
  const tokens = assets.map((asset) => ({ asset, decimals: CHAIN_SPECS[chain].tokens[asset]!.decimals }));
  const anvil = await startAnvil({ chain, tokens });
  const { minWithdrawal, networkFee, sweepMinimum, sweepFee } = NETWORK_COST_DEFAULTS[chain];
  const net = matrixNetwork(anvil.network('test', { minWithdrawal, networkFee, sweepMinimum, sweepFee }));
  setNetworkOverride('test', net, chain);
  const token = (asset: string) => anvil.tokens.find((t) => t.asset === asset)!;
  // The hot wallet pays refunds and withdrawals whatever was swept to it yet.
  for (const t of anvil.tokens) await anvil.mint(anvil.addresses.hot, '1000000', t.address);
  return {
    chain,
    net,
    confirmations: net.confirmations,
    sweptFeeTo: 'fee',
    wallets: { hot: anvil.addresses.hot, fee: anvil.addresses.fee },
    async pay(to, asset, amount) {
      const key = generatePrivateKey();
      const payer = privateKeyToAccount(key);
      await anvil.client.setBalance({ address: payer.address, value: parseUnits('1', 18) });
      await anvil.mint(payer.address, amount, token(asset).address);
      const wallet = createWalletClient({ chain: anvil.client.chain, account: payer, transport: http(anvil.rpcUrl) });
      const hash = await wallet.writeContract({
        address: token(asset).address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [getAddress(to), parseUnits(amount, token(asset).decimals)],
      });
      await anvil.client.waitForTransactionReceipt({ hash });
      return payer.address;
    },
    mine: (blocks) => anvil.mine(blocks),
    async held(address, asset) {
      return formatUnits(await anvil.tokenBalance(EVM_ADDRESS_CODEC.parse(address), token(asset).address), token(asset).decimals);
    },
    freshAddress: () => privateKeyToAddress(generatePrivateKey()),
    async stop() {
      setNetworkOverride('test', undefined, chain);
      await anvil.stop();
    },
  };
};
