import { Decimal } from '@/lib/money';
import type { FamilyOps } from './family-ops';
import { checkSolanaRail } from './check-solana-rail';
import { UnsupportedOnRailError } from './common/unsupported-on-rail';
import { SOLANA_ADDRESS_CODEC } from './solana/address-codec';
import { solanaDepositOwnerAddress } from './solana/deposit-owner-address';
import { solanaRpc } from './solana/rpc';

/**
 * The Solana family (docs/solana.md): JSON-RPC through lib/chain/solana. The deposit address is a per-invoice owner
 * key (§3), whose associated token account for the mint receives. What is not built yet throws
 * UnsupportedOnRailError; the rail is not offered until it is (lib/config/rails.ts `notOffered`).
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
};
