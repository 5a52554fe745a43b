import { sql } from 'drizzle-orm';
import { gasSpend } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';

/** Hex hashes (EVM, TRON) are kept lowercase, however a node spelled them; a Base58 signature (Solana) is case-sensitive. */
const txKey = (hash: string) => (/^(0x)?[0-9a-fA-F]+$/.test(hash) ? hash.toLowerCase() : hash);

export type GasSpendKind = (typeof gasSpend.kind.enumValues)[number];

/**
 * Records the gas one of our mined transactions cost (gasUsed × the price it paid; on TRON the TRX it burned), once per
 * transaction however often its receipt is read. `mode` may be given as a settlement id whose
 * mode it takes (a settlement step knows its settlement, not its mode).
 */
export async function recordGasSpend(
  db: Db,
  spend: {
    mode: Mode | { ofSettlement: string };
    chainId: number;
    kind: GasSpendKind;
    referenceId: string;
    txHash: string;
    gasUsed: bigint;
  } & ({ gasPrice: bigint } | { /** What it burned, when that is no gas × price (TRON: the fee its info reports, in sun). */ cost: bigint }),
) {
  const cost = 'cost' in spend ? spend.cost : spend.gasUsed * spend.gasPrice;
  const mode = typeof spend.mode === 'string' ? sql`${spend.mode}` : sql`(select mode from settlements where id = ${spend.mode.ofSettlement})`;
  await db.execute(sql`
    insert into ${gasSpend} (id, mode, chain_id, kind, reference_id, tx_hash, gas_used, cost_wei)
    values (${newId('gasSpend')}, ${mode}, ${spend.chainId}, ${spend.kind}, ${spend.referenceId}, ${txKey(spend.txHash)},
            ${spend.gasUsed.toString()}::numeric, ${cost.toString()}::numeric)
    on conflict (chain_id, tx_hash) do nothing`);
}
