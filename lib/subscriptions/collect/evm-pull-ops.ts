import { isAddress, isAddressEqual, zeroAddress, type Address, type Hex } from 'viem';
import { publicClient } from '@/lib/chain/clients';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { readCollectionState } from '../read-collection-state';
import type { CollectorNetwork } from './collector-network';
import type { PullOps } from './pull-ops';
import { recordPull, sendPull } from './pull-tx';

type PermissionTuple = readonly [Address, number, number, bigint, bigint, number, boolean];

const read = (net: CollectorNetwork, functionName: string, args: unknown[]) =>
  publicClient(net.rpcUrl).readContract({ address: net.collectorAddress as Address, abi: COLLECTOR_ABI, functionName, args });

/** The pull on EVM: JSON-RPC, the operator's nonce reserved with the record, the receipt awaited (pull-tx.ts). */
export const EVM_PULL_OPS: PullOps = {
  costDecimals: 18,
  storedAddress: (a) => a.toLowerCase(),
  wireAddress: (a) => a.toLowerCase(),
  // A mixed-case address must be checksum-valid (a typo is caught), and never the zero address.
  payerProblem: (s) => (!isAddress(s, { strict: true }) || isAddressEqual(s, zeroAddress) ? 'is not a valid 0x address (40 hex characters)' : null),
  abiAddress: (a) => a.toLowerCase() as Address,
  approveLink: (p) => `ethereum:${p.token}@${p.chainId}/approve?address=${p.spender}&uint256=${p.units}`,
  readState: (net, p) =>
    readCollectionState(
      { rpcUrl: net.rpcUrl, collectorAddress: net.collectorAddress as Address },
      { subscriptionId: p.permissionId, payer: p.payer as Address, token: net.tokenAddress as Address, amount: p.amount },
    ),
  async readPermission(net, payer, permissionId: Hex) {
    const [token, start, period, cap, spent, , revoked] = (await read(net, 'permissions', [payer, permissionId])) as PermissionTuple;
    return { token: token.toLowerCase(), start: BigInt(start), period: BigInt(period), cap, spent, revoked };
  },
  depositAllowed: async (net, to) => (await read(net, 'depositAllowed', [to])) as boolean,
  record: (db, net, p) =>
    recordPull(db, publicClient(net.rpcUrl), net, { ...p, depositAddress: p.depositAddress as Address, payer: p.payer as Address }),
  async advance(db, net, row, afterBroadcast) {
    const { ok } = await sendPull(db, publicClient(net.rpcUrl), net, row, afterBroadcast);
    return ok ? 'succeeded' : 'reverted';
  },
};
