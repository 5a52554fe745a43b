import { readFileSync } from 'node:fs';
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { gasSpend, withdrawals } from '@/db/schema';
import type { ChainKey } from '@/lib/config/rails';
import { newId } from '@/lib/ids';
import { createTestTenant } from '@/lib/testing/fixtures';

// The migration's own statement, run again over rows written the old way (migrations ran before these rows existed).
const MIGRATION = readFileSync(new URL('../../db/migrations/0053_tron_gas_spend_in_sun.sql', import.meta.url), 'utf8');

/**
 * Issue 43 §2: TRON withdrawals recorded their burned TRX as sun × 10^12 (through SUN_TO_WEI18) while TRON sweeps
 * recorded sun; migration 0051 brings the withdrawals' rows back to sun exactly and leaves every other row alone.
 */
describe('migration 0051: TRON gas costs in sun', () => {
  it('divides old TRON withdrawal rows by 10^12 exactly and touches nothing else', async () => {
    const t = await createTestTenant();
    const withdrawal = async (chain: ChainKey) => {
      const id = newId('withdrawal');
      await t.db.insert(withdrawals).values({
        id,
        tenantId: t.tenant.id,
        mode: 'test',
        chain,
        token: 'USDT',
        amount: '5',
        feeAmount: '0',
        netAmount: '5',
        destinationAddress: chain === 'TRON' ? 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' : `0x${'ab'.repeat(20)}`,
        chainId: 1_337_998,
        status: 'COMPLETED',
      });
      return id;
    };
    const tron = await withdrawal('TRON');
    const evm = await withdrawal('ETHEREUM');
    const settlementId = newId('settlement');
    const hash = () => newId('gasSpend').replace(/[^0-9a-z]/g, '');
    // A burn of 13.845 TRX (345 energy at 420 sun is small; a first transfer to a new holder burns ~13 TRX), written the old way.
    const oldSun = 13_845_000n;
    const rows = [
      { kind: 'withdrawal' as const, referenceId: tron, costWei: (oldSun * 10n ** 12n).toString() },
      // An EVM withdrawal whose wei happens to be a multiple of 10^12: not TRON, untouched.
      { kind: 'withdrawal' as const, referenceId: evm, costWei: (105_000n * 10n ** 12n).toString() },
      // A TRON sweep step: always in sun, untouched.
      { kind: 'sweep_activate' as const, referenceId: settlementId, costWei: '1100000' },
    ].map((r) => ({ id: newId('gasSpend'), mode: 'test' as const, chainId: 1_337_998, txHash: hash(), gasUsed: '0', ...r }));
    await t.db.insert(gasSpend).values(rows);

    await t.db.execute(sql.raw(MIGRATION));
    const after = await t.db
      .select()
      .from(gasSpend)
      .where(
        inArray(
          gasSpend.id,
          rows.map((r) => r.id),
        ),
      );
    const cost = (id: string) => after.find((r) => r.id === id)!.costWei;
    expect(cost(rows[0]!.id)).toBe(oldSun.toString());
    expect(cost(rows[1]!.id)).toBe((105_000n * 10n ** 12n).toString());
    expect(cost(rows[2]!.id)).toBe('1100000');

    // Run twice (a replayed migration): rows already in sun are not divided again.
    await t.db.execute(sql.raw(MIGRATION));
    const again = await t.db
      .select()
      .from(gasSpend)
      .where(inArray(gasSpend.id, [rows[0]!.id]));
    expect(again[0]!.costWei).toBe(oldSun.toString());
  });
});
