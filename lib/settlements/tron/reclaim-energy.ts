import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { sql } from 'drizzle-orm';
import { privateKeyToAddress } from 'viem/accounts';
import type { TronSweepPlan } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { ReadyNetwork, TronNetwork } from '@/lib/chain/network';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { toHex41 } from '@/lib/chain/tron/address';
import { readTronStake } from '@/lib/chain/tron/stake';
import { buildUndelegate } from '@/lib/chain/tron/transactions';
import { log } from '@/lib/log';
import { runTronStep, type TronStepContext, type TronSweepHooks } from './send-tron-step';

type Net = ReadyNetwork<'rpcUrl' | 'gasWalletKey', TronNetwork>;

/** Undelegations in flight at once: each waits for its block, so a backlog drains a batch per block. */
const BATCH = 64;

/**
 * The energy janitor (issue 44: undelegation is off the payment's path; issue 42: energy is always reclaimed):
 * every TRON settlement of the network that is finished (credited) or failed for good and whose energy wallet
 * delegated to its deposit address gets its `undelegate` step, recorded before broadcast and counted once in a
 * block, like any step. The amount is judged against the chain (what the deposit still holds of the planned
 * delegation): nothing left, nothing is sent. Returns how many settlements it looked at.
 */
export async function reclaimTronEnergy(db: Db, net: Net, hooks: TronSweepHooks = {}): Promise<number> {
  const rows = rowsOf<{ id: string; deposit: string; plan: TronSweepPlan }>(
    await db.execute(sql`
      select s.id, i.deposit_address as deposit, s.gas_plan as plan from settlements s join invoices i on i.id = s.invoice_id
       where s.chain_id = ${net.chainId} and s.mode = ${net.mode} and s.status in ('completed', 'failed')
         and s.gas_plan->>'kind' = 'tron' and s.gas_plan->>'feeMode' = 'delegate'
         and exists (select 1 from settlement_txs t where t.settlement_id = s.id and t.step = 'delegate')
         and not exists (select 1 from settlement_txs t where t.settlement_id = s.id and t.step = 'undelegate' and t.status in ('confirmed', 'skipped'))
       order by s.completed_at nulls last limit 200`),
  );
  const client = tronClientOf(net, 10_000);
  const energyWallet = toHex41(privateKeyToAddress(net.gasWalletKey));
  const key = net.gasWalletKey.slice(2);
  const one = async (r: (typeof rows)[number]) => {
    const ctx: TronStepContext = { db, client, chainId: net.chainId, settlementId: r.id, hooks };
    await runTronStep(ctx, {
      step: 'undelegate',
      key,
      from: energyWallet,
      to: r.deposit,
      final: 'included',
      // What the deposit still holds of this sweep's delegation (only the energy wallet delegates to deposits).
      value: async () => {
        const held = (await readTronStake(client, r.deposit)).acquiredEnergySun;
        const planned = BigInt(r.plan.delegateSun);
        const sun = held < planned ? held : planned;
        return sun > 0n ? sun.toString() : null;
      },
      build: (sun, ref, lifetimeMs) =>
        buildUndelegate({ from: energyWallet, to: TRON_ADDRESS_CODEC.parseStored(r.deposit), sun, resource: 'ENERGY', ref, lifetimeMs }),
    });
  };
  let first: unknown = null;
  for (let i = 0; i < rows.length; i += BATCH) {
    const results = await Promise.allSettled(rows.slice(i, i + BATCH).map(one));
    for (const [j, res] of results.entries()) {
      if (res.status === 'fulfilled') continue;
      first ??= res.reason;
      log.warn('TRON energy not reclaimed yet; retried next pass', { settlementId: rows[i + j]!.id, error: String(res.reason) });
    }
  }
  // The others were tried: one failure does not hold them up, and the pass reports it.
  if (first) throw first;
  return rows.length;
}
