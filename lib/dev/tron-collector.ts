import { TronWeb, utils } from 'tronweb';
import { encodeDeployData, type Abi, type Hex } from 'viem';
import { genesisIdOf } from '@/devtools/tron-node/chain';
import { contractAddressOf } from '@/devtools/tron-node/deploy';
import type { TronTxJson } from '@/devtools/tron-node/tx-codec';
import collector from '@/lib/chain/evm/collector/collector.json' with { type: 'json' };
import { toBase58, toEvm } from '@/lib/chain/tron/address';

/** TRX the energy wallet stakes for energy before deploying: its pulls (136,503 energy each) and the deploy use it. */
const STAKE_SUN = 400_000n * 1_000_000n;
/** How long after planning the deploy may still be broadcast (its expiration): a stack starts within minutes. */
const LIFETIME_MS = 12 * 3_600_000;

export interface TronCollectorPlan {
  /** Where the collector will be, `T…`. */
  address: string;
  /** The CreateSmartContract, unsigned, as the energy wallet broadcasts it. */
  tx: TronTxJson & { txID: string; raw_data_hex: string };
}

/**
 * The subscription collector on a TRON stand-in (issue 48 §2), known before the stand-in starts: a contract's address
 * on TRON is keccak256(txID ‖ owner), so the deploy transaction is built here without the node, its TaPoS reference
 * the genesis block (whose id the stand-in derives from its chain id, devtools/tron-node/chain.ts genesisIdOf), its
 * expiration `plannedAtMs` + 12 h. The owner (the energy wallet) is the collector's admin and operator, and callers pay
 * all of its energy (`consume_user_resource_percent` 100), as tron-collection.test.ts deploys it.
 */
export function planTronCollector(p: { chainId: number; owner: { hex: string }; plannedAtMs: number }): TronCollectorPlan {
  const owner = p.owner.hex.toLowerCase();
  const bytecode = encodeDeployData({ abi: collector.abi as Abi, bytecode: collector.bytecode as Hex, args: [toEvm(owner), toEvm(owner)] });
  const raw_data = {
    contract: [
      {
        parameter: {
          value: {
            owner_address: owner,
            new_contract: {
              abi: { entrys: collector.abi },
              consume_user_resource_percent: 100,
              origin_energy_limit: 10_000_000,
              origin_address: owner,
              bytecode: bytecode.slice(2),
              name: 'SubscriptionCollector',
            },
          },
          type_url: 'type.googleapis.com/protocol.CreateSmartContract',
        },
        type: 'CreateSmartContract',
      },
    ],
    ref_block_bytes: '0000',
    ref_block_hash: genesisIdOf(p.chainId).slice(16, 32),
    expiration: p.plannedAtMs + LIFETIME_MS,
    timestamp: p.plannedAtMs,
    fee_limit: 1_000_000_000,
  };
  const pb = utils.transaction.txJsonToPb({ visible: false, raw_data } as never);
  const txID = utils.transaction.txPbToTxID(pb).replace(/^0x/, '');
  const raw_data_hex = Buffer.from(pb.getRawData().serializeBinary() as Uint8Array).toString('hex');
  return { address: toBase58(contractAddressOf(txID, owner)), tx: { visible: false, txID, raw_data, raw_data_hex } };
}

/**
 * Stakes the energy wallet's TRX for energy and broadcasts the planned deploy, signed by it; resolves once the
 * collector is in a block (the stand-in mines every 3 s in dev), with the energy the deploy used. Throws if refused,
 * failed, or the node kept failing past `deadlineMs`: a dev stack whose collector is not where its settings say must
 * not start. A failed call is retried, never taken as an answer (the in-process stand-in resets a keep-alive socket
 * now and then while the embedded database's migrations stall the event loop); each transaction is signed once, so a
 * broadcast sent again after its answer was lost is the same transaction, and its duplicate counts as sent.
 */
export async function deployTronCollector(
  url: string,
  energyWallet: { privateKey: string; address: string },
  plan: TronCollectorPlan,
  opts: { deadlineMs?: number } = {},
) {
  const tw = new TronWeb({ fullHost: url, privateKey: energyWallet.privateKey });
  const deadline = Date.now() + (opts.deadlineMs ?? 60_000);
  const retried = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await call();
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        if (Date.now() > deadline) throw new Error(`TRON collector: ${what} failed until the deadline: ${why}`);
        await new Promise((ok) => setTimeout(ok, 250));
      }
    }
  };
  const sent = async (tx: unknown, what: string) => {
    const signed = (await tw.trx.sign(tx as never)) as { txID: string };
    const res = (await retried(what, () => tw.trx.sendRawTransaction(signed as never))) as { result?: boolean; code?: string; message?: string };
    if (!res.result && res.code !== 'DUP_TRANSACTION_ERROR') {
      throw new Error(`TRON collector: ${what} refused: ${Buffer.from(String(res.message ?? ''), 'hex').toString()}`);
    }
    return signed.txID;
  };
  const stake = await retried('stake', () => tw.transactionBuilder.freezeBalanceV2(Number(STAKE_SUN), 'ENERGY', energyWallet.address));
  await sent(stake, 'stake');
  const txId = await sent(plan.tx, 'deploy');
  for (;;) {
    const info = (await retried('deploy look-up', () => tw.trx.getUnconfirmedTransactionInfo(txId))) as {
      blockNumber?: number;
      receipt?: { result?: string; energy_usage_total?: number };
    };
    if (info.blockNumber !== undefined) {
      if (info.receipt?.result !== 'SUCCESS') throw new Error(`TRON collector: deploy ${info.receipt?.result ?? 'failed'}`);
      return { address: plan.address, energy: info.receipt.energy_usage_total ?? 0 };
    }
    if (Date.now() > deadline) throw new Error(`TRON collector: deploy not mined within ${(opts.deadlineMs ?? 60_000) / 1000} s`);
    await new Promise((ok) => setTimeout(ok, 250)); // the stand-in has no push for a mined transaction
  }
}

/** The settings that give a mode's TRON rail the collector (docs/subscriptions.md): the energy wallet its admin too. */
export function tronCollectorEnv(mode: 'test' | 'live', address: string, adminKey: string): Record<string, string> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  return { [`${p}_TRON_COLLECTOR_ADDRESS`]: address, [`${p}_TRON_COLLECTOR_ADMIN_PRIVATE_KEY`]: adminKey };
}
