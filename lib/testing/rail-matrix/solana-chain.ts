import { generateKeyPairSync } from 'node:crypto';
import { getBase58Decoder, type Address } from '@solana/kit';
import { formatUnits, parseUnits } from 'viem';
import { startSolanaNode } from '@/devtools/solana-node/solana-node';
import { setNetworkOverride } from '@/lib/chain/network';
import { solanaRpc } from '@/lib/chain/solana/rpc';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { solanaTestNetwork } from '../solana-network';
import { solanaPayer } from '../solana-payer';
import { matrixNetwork, type MatrixChainStarter } from './matrix-chain';

/** Slots from a transaction to `finalized` on the matrix's stand-in (mainnet's ~32 would only make each wait longer). */
const FINALIZED_DEPTH = 4;

/**
 * Solana in the matrix: the stand-in with both mints, Solana's default costs, the hot wallet holding 1,000,000 of
 * each; payers are @solana/kit wallets (lib/testing/solana-payer.ts). The stand-in makes a slot per transaction and
 * otherwise only when asked, so mining and each wait of a sweep advance it. Its own chain id: a lane tracks every
 * withdrawal of its mode and chain id, and the Solana test files running beside it use the development one.
 */
export const startSolanaMatrixChain: MatrixChainStarter = async (chain, assets) => {
  if (chain !== 'SOLANA' || assets.some((a) => !CHAIN_SPECS.SOLANA.tokens[a]))
    throw new Error(`the Solana stand-in runs SOLANA:USDC and SOLANA:USDT only, not ${chain} ${assets.join(',')}`);
  const node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  const { minWithdrawal, networkFee, sweepMinimum, sweepFee } = NETWORK_COST_DEFAULTS.SOLANA;
  const net = matrixNetwork(
    solanaTestNetwork(node, { assets, chainId: 200_000 + Math.floor(Math.random() * 800_000), minWithdrawal, networkFee, sweepMinimum, sweepFee }),
  );
  setNetworkOverride('test', net);
  const decimals = (asset: string) => CHAIN_SPECS.SOLANA.tokens[asset as 'USDC']!.decimals;
  for (const asset of assets) await node.mintTo(asset as 'USDC', node.keys.hot.address, parseUnits('1000000', decimals(asset)));
  const payer = solanaPayer(node);
  const rpc = solanaRpc(node.url);
  return {
    chain,
    net,
    confirmations: net.confirmations,
    sweptFeeTo: 'hot',
    wallets: { hot: node.keys.hot.address, fee: net.feeWallet },
    async pay(to, asset, amount) {
      const units = parseUnits(amount, decimals(asset));
      const wallet = await payer.funded(asset as 'USDC', units);
      await payer.pay(wallet, to as Address, asset as 'USDC', units);
      return wallet.address;
    },
    mine: async (blocks) => {
      node.advance(blocks);
    },
    async held(address, asset) {
      const { value } = await rpc.call('getTokenAccountsByOwner', [
        address,
        { mint: node.mints[asset as 'USDC'] },
        { encoding: 'jsonParsed', commitment: 'confirmed' },
      ]);
      const units = value.reduce((s, a) => s + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n);
      return formatUnits(units, decimals(asset));
    },
    freshAddress: () => getBase58Decoder().decode(rawPublicKey()),
    settleHooks: {
      onWait: () => {
        node.advance(FINALIZED_DEPTH);
      },
    },
    async stop() {
      setNetworkOverride('test', undefined, 'SOLANA');
      await node.stop();
    },
  };
};

/** A new ed25519 public key (a wallet nobody used): on the curve, so the destination rule takes it for a person's. */
function rawPublicKey(): Uint8Array {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
}
