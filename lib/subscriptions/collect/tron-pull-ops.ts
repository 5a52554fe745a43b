import { erc20Abi, type Hex } from 'viem';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { parseTronAddress, toBase58, toEvm, toHex41 } from '@/lib/chain/tron/address';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { readTronView } from '@/lib/chain/tron/view-call';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { judgeCollectionState } from '../read-collection-state';
import type { CollectorNetwork } from './collector-network';
import type { PullOps } from './pull-ops';
import { advanceTronPull, recordTronPull } from './tron-pull-tx';

type PermissionTuple = readonly [Hex, number, number, bigint, bigint, number, boolean];

const clientOf = (net: CollectorNetwork) => tronClientOf({ rpcUrl: net.rpcUrl, chain: net.chain ?? 'TRON' });
const collectorView = (net: CollectorNetwork, functionName: string, args: readonly unknown[]) =>
  readTronView(clientOf(net), { contract: net.collectorAddress, abi: COLLECTOR_ABI, functionName, args });

/**
 * The pull on TRON (issue 48 §2): the same collector contract, read with `triggerconstantcontract` (the ABI's words,
 * addresses as their 20 account bytes), the pull a TronWeb-signed TriggerSmartContract from the energy wallet,
 * recorded before broadcast and followed without nonces (tron-pull-tx.ts). Addresses are stored `41…` and shown `T…`.
 */
export const TRON_PULL_OPS: PullOps = {
  costDecimals: 6,
  storedAddress: (a) => toHex41(a),
  wireAddress: (a) => toBase58(a),
  payerProblem(s) {
    try {
      parseTronAddress(s);
      return null;
    } catch (e) {
      return `is not a valid TRON address: ${e instanceof Error ? e.message : String(e)}`;
    }
  },
  abiAddress: (a) => toEvm(a),
  // TronLink has no approve link: the page shows the call (contract, function, arguments) it signs.
  approveLink: () => null,
  // Three reads at the head: TRON's HTTP API has no batch nor past block; each failed read throws.
  async readState(net, p) {
    const client = clientOf(net);
    const [balance, allowance, available] = await Promise.all([
      readTrc20Balance(client, net.tokenAddress, p.payer),
      readTronView(client, {
        contract: net.tokenAddress,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [toEvm(p.payer), toEvm(net.collectorAddress)],
      }),
      collectorView(net, 'available', [p.permissionId, toEvm(p.payer)]),
    ]);
    return judgeCollectionState({ balance, allowance: allowance as bigint, available: available as bigint }, p.amount);
  },
  async readPermission(net, payer, permissionId) {
    const [token, start, period, cap, spent, , revoked] = (await collectorView(net, 'permissions', [toEvm(payer), permissionId])) as PermissionTuple;
    return { token: toBase58(token), start: BigInt(start), period: BigInt(period), cap, spent, revoked };
  },
  depositAllowed: async (net, to) => (await collectorView(net, 'depositAllowed', [toEvm(to)])) as boolean,
  record: (db, net, p) => recordTronPull(db, clientOf(net), net, p),
  advance: (db, net, row, afterBroadcast) => advanceTronPull(db, clientOf(net), net, row, afterBroadcast),
};
