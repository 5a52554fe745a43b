import { getAddress } from 'viem';
import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';
import { readCode } from '@/lib/chain/read-code';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { knownExchangeWallets } from './known-exchange-wallets';
import { CHAIN_SPECS, familyOf, type ChainFamily } from '@/lib/config/rails';
import { env } from '@/lib/env';
import { toBase58, toHex41 } from '@/lib/chain/tron/address';
import { accountBytes } from '@/lib/chain/address-codecs';
import { TronNodeError } from '@/lib/chain/tron/node-client';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { SOLANA_ADDRESS_CODEC } from '@/lib/chain/solana/address-codec';
import { readSolanaSenderKind } from '@/lib/chain/solana/read-sender-kind';
import { SolanaRpcError, solanaRpc } from '@/lib/chain/solana/rpc';

/**
 * TRON: whether the account is a smart contract (`/wallet/getcontract` answers `{}` for any other account). A
 * failed read throws TronNodeError; an answer for another address too (never taken as "no code").
 */
async function readTronCode(net: Network, address: string): Promise<'contract' | 'none'> {
  const hex = toHex41(address);
  const out = await tronClientOf(net).wallet<{ contract_address?: string; bytecode?: string }>('getcontract', { value: hex });
  if (!out || Object.keys(out).length === 0) return 'none';
  if (out.contract_address && out.contract_address.toLowerCase() !== hex) {
    throw new TronNodeError('/wallet/getcontract', `asked for ${hex}, got ${out.contract_address}`);
  }
  return 'contract';
}

/** Each family's part: a stored sender in its wire form, and whether an account holds contract code. */
const SENDER_FAMILIES: Record<
  ChainFamily,
  { wire: (stored: string) => string; readCode: (net: Network, address: string) => Promise<'none' | 'delegated' | 'contract'> }
> = {
  evm: { wire: (s) => getAddress(s), readCode: (net, a) => readCode(net, a) },
  tron: { wire: (s) => toBase58(toHex41(s)), readCode: (net, a) => readTronCode(net, a) },
  // A program, a program-owned account or a key-less derived address counts as a contract (read-sender-kind.ts).
  solana: {
    wire: (s) => SOLANA_ADDRESS_CODEC.parse(s),
    readCode: async (net, a) => {
      if (!net.rpcUrl) throw new SolanaRpcError('getAccountInfo', `no ${net.mode} ${net.chain} node configured`);
      return readSolanaSenderKind(solanaRpc(net.rpcUrl), SOLANA_ADDRESS_CODEC.parse(a));
    },
  },
};

const CLAIM_LINK = 'Send the payer a refund claim link instead, so they give an address of their own.';

/**
 * Whether a held payment may be sent back to its sender, beyond the destination checks: money sent back
 * must reach a person. Refused (409 sender_not_refundable) when the sender is on the operator's list of
 * exchange hot wallets (the money would land in the exchange's pool, not the payer's account) or has
 * contract code on the payment's network (a swap router anyone can skim, a smart-contract wallet or an
 * exchange's forwarder). An EIP-7702 account is still held by its key: sent back to. A failed read of
 * the code is a 503 and nothing changes: no code is never assumed.
 */
export async function checkSendBackSender(net: Network, sender: string): Promise<void> {
  const family = SENDER_FAMILIES[familyOf(net.chain)];
  // The wire form (T… or EIP-55) for messages; the operator's list holds 20 bytes (the family codec's).
  const address = family.wire(sender);
  const name = CHAIN_SPECS[net.chain].name;
  if (knownExchangeWallets(env()).has(accountBytes(address))) {
    throw new ApiError(
      'sender_not_refundable',
      `Cannot send this payment back: the sender ${address} is a known exchange hot wallet, so the money would reach the exchange, not the payer. ${CLAIM_LINK}`,
    );
  }
  let kind;
  try {
    kind = await family.readCode(net, address);
  } catch (err) {
    if (!(err instanceof RpcReadError) && !(err instanceof TronNodeError) && !(err instanceof SolanaRpcError)) throw err;
    throw new ApiError('service_unavailable', `Could not read whether the sender is a contract on ${name}; nothing was changed, try again.`);
  }
  if (kind === 'contract') {
    throw new ApiError(
      'sender_not_refundable',
      `Cannot send this payment back: the sender ${address} is a contract on ${name} (a swap router, an exchange's or a smart-contract wallet), where money sent back may not reach the payer. ${CLAIM_LINK}`,
    );
  }
}
