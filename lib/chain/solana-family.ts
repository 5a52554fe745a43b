import { Decimal } from '@/lib/money';
import type { FamilyOps } from './family-ops';
import { checkSolanaRail } from './check-solana-rail';
import { UnsupportedOnRailError } from './common/unsupported-on-rail';
import { SOLANA_ADDRESS_CODEC } from './solana/address-codec';
import { solanaDepositOwnerAddress } from './solana/deposit-owner-address';
import { solanaRpc } from './solana/rpc';
import { judgeSolanaPayee } from './solana/judge-payee';
import { solanaWalletAddress } from './solana/wallet-address';

/**
 * The Solana family (docs/solana.md): JSON-RPC through lib/chain/solana. The deposit address is a per-invoice owner
 * key (§3), whose associated token account for the mint receives. What the family has no use for throws
 * UnsupportedOnRailError (the freeze-list read: Solana's mints declare none, a frozen account is read instead).
 */
export const SOLANA_FAMILY: FamilyOps<'solana'> = {
  family: 'solana',
  // Its own branch (m/44'/501'/index'/0', SLIP-0010), derived at claim time from the one index sequence.
  pooledAddresses: false,
  depositAddress: (mnemonic, index) => SOLANA_ADDRESS_CODEC.parseStored(solanaDepositOwnerAddress(mnemonic, index)),
  // The same Base58 text is stored and shown.
  payerAddress: (stored) => SOLANA_ADDRESS_CODEC.parse(stored),
  // A Solana Pay transfer request: the recipient is the invoice's owner key (wallets pay its associated token account
  // for `spl-token`); the amount in whole tokens, plain decimal (no exponent), as the spec requires. No `reference`:
  // the per-invoice owner already tells payments apart (docs/solana.md §3).
  paymentUri: ({ token, to, units, decimals }) =>
    `solana:${to}?amount=${new Decimal(units.toString()).div(new Decimal(10).pow(decimals)).toFixed()}&spl-token=${token}`,
  checkRail: (net) => checkSolanaRail(net),
  // The slot at `confirmed`: what the detection reads at.
  readHead: async (net, timeoutMs) => Number(await solanaRpc(net.rpcUrl, { timeoutMs }).call('getSlot', [{ commitment: 'confirmed' }])),
  // Freezing on Solana is a token account's state, read by the destination rule, not a contract's list.
  readFreezeList: (net) => Promise.reject(new UnsupportedOnRailError(net.chain, 'the freeze-list read')),

  // Withdrawals (docs/solana.md §6.2)
  // Our wallets' addresses (a destination that is one is refused): configured keys are ed25519 seeds, never BSC's secp256k1 keys.
  walletAddress: (key) => SOLANA_ADDRESS_CODEC.parse(solanaWalletAddress(key)),
  // The destination rule on the accounts as the node has them at `confirmed`: a wallet is paid at its ATA, a token
  // account only when it is its owner's ATA for this mint, and never a frozen one. The sending lane judges it again.
  judgeDestination: async (net, address) => {
    if (!net.rpcUrl || !net.tokenAddress) throw new Error(`${net.mode} ${net.chain}: no node or mint configured to read the destination`);
    const payee = await judgeSolanaPayee(solanaRpc(net.rpcUrl), address, SOLANA_ADDRESS_CODEC.parse(net.tokenAddress));
    return payee.ok ? null : { code: payee.code, reason: payee.reason };
  },
};
