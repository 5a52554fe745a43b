import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ErrorDetail } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import type { PrepareWithdrawalControls } from '@/lib/withdrawals/create-withdrawal';
import { batchHeld, withBatchHold } from './batch-hold';
import { checkPayoutItems, type PayoutOwner } from './prepare-payout-items';
import { MAX_PAYOUT_ITEMS, PayoutItemInput, type PayoutItemInputValue } from './schemas';

/** A row as uploaded: every column a string (a CSV cell), checked here. */
export const PayoutPreviewBody = z.strictObject({
  items: z.array(z.record(z.string(), z.string())).min(1).max(MAX_PAYOUT_ITEMS),
});

export interface PreviewRow {
  position: number;
  /** The row's refusals, each with the field, the message and the code the API would refuse it with. */
  errors: { field: string; message: string; code: string }[];
  /** The row's fee and total debited, once the row passed every check. */
  feeAmount: string | null;
  total: string | null;
}
export interface PreviewTotal {
  token: string;
  amount: string;
  feeAmount: string;
  total: string;
  available: string;
  /** What the balance lacks (the API would refuse `insufficient_balance`), or null. */
  short: string | null;
}
export interface PayoutPreview {
  rows: PreviewRow[];
  totals: PreviewTotal[];
  invalidRows: number;
  /** The batch would wait for ONE approval of the owner (API keys above the threshold). */
  held: boolean;
}

/**
 * The dashboard's preview of a payout: each row through the very checks of POST /v1/payouts (the schema, then
 * checkPayoutItems: the destination's form on its family, minimums, screening, the freeze list, the allow-list and
 * the other controls), and the totals with fees per asset against the balance. Writes nothing; the confirmation
 * sends the same rows through createPayout, which checks them all again.
 */
export async function previewPayout(
  db: Db,
  owner: PayoutOwner,
  input: unknown,
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
): Promise<PayoutPreview> {
  const { items } = PayoutPreviewBody.parse(input);
  const rows: PreviewRow[] = items.map((_, position) => ({ position, errors: [], feeAmount: null, total: null }));
  const valid: { position: number; item: PayoutItemInputValue }[] = [];
  items.forEach((raw, position) => {
    const parsed = PayoutItemInput.safeParse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.trim()])));
    if (parsed.success) valid.push({ position, item: parsed.data });
    else
      rows[position]!.errors.push(
        ...parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.') || 'row', message: i.message, code: 'validation_failed' })),
      );
  });
  const list = valid.map((v) => v.item);
  const held = await batchHeld(db, owner, actor, list);
  const { prepared, errors } = await checkPayoutItems(db, owner, list, actor, withBatchHold(prepareControls, held));
  const need = new Map<string, { amount: Decimal; fee: Decimal }>();
  valid.forEach(({ position }, k) => {
    const row = rows[position]!;
    row.errors.push(...errors[k]!.map((d) => detailOf(d)));
    const p = prepared[k];
    if (!p || row.errors.length > 0) return;
    row.feeAmount = formatAmount(p.fee);
    row.total = formatAmount(new Decimal(p.row.amount).plus(p.fee));
    const n = need.get(p.row.token) ?? { amount: new Decimal(0), fee: new Decimal(0) };
    need.set(p.row.token, { amount: n.amount.plus(p.row.amount), fee: n.fee.plus(p.fee) });
  });
  const balances = new Map(
    rowsOf<{ currency: string; available: string }>(
      await db.execute(sql`select currency, available::text as available from balances where tenant_id = ${owner.tenantId} and mode = ${owner.mode}`),
    ).map((b) => [b.currency, new Decimal(b.available)]),
  );
  const totals = [...need]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([token, n]) => {
      const total = n.amount.plus(n.fee);
      const available = balances.get(token) ?? new Decimal(0);
      return {
        token,
        amount: formatAmount(n.amount),
        feeAmount: formatAmount(n.fee),
        total: formatAmount(total),
        available: formatAmount(available),
        short: total.gt(available) ? formatAmount(total.minus(available)) : null,
      };
    });
  return { rows, totals, invalidRows: rows.filter((r) => r.errors.length > 0).length, held };
}

/** `items[3].destinationAddress` → the field alone (the row is the table's). */
function detailOf(d: ErrorDetail) {
  return { field: d.path.replace(/^items\[\d+\]\.?/, '') || 'row', message: d.message, code: d.code ?? 'invalid' };
}
