import { and, eq, inArray } from 'drizzle-orm';
import { payoutItems } from '@/db/schema';
import { ApiError, type ErrorDetail } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import type { AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { refuseDepositAddress } from '@/lib/destinations/check-destination';
import type { Mode } from '@/lib/mode';
import { prepareWithdrawal, type PrepareWithdrawalControls, type PreparedWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import type { PayoutItemInputValue } from './schemas';

export type PayoutOwner = { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> };

/** Items checked side by side: each may read the token's freeze list on its chain (one RPC call). */
const CONCURRENCY = 8;

/** A row's refusal as a detail of the batch's: `items[i].<field>` and the code the row alone would get. */
export function rowDetails(index: number, err: ApiError): ErrorDetail[] {
  const details = err.details?.length ? err.details : [{ path: '', message: err.message }];
  return details.map((d) => ({ path: `items[${index}]${d.path ? `.${d.path}` : ''}`, message: d.message, code: d.code ?? err.code }));
}

/**
 * Every item through the checks of a single withdrawal (prepareWithdrawal: amount, rail, minimum, the destination's
 * form on its family, ours, screening, the freeze list, the caller's controls), plus deposit addresses (a single
 * withdrawal's statement guards them; a batch names the row first) and the references. Nothing is written. Any
 * refused row refuses the batch with every row's refusal; a 5xx (a freeze list that could not be read) is thrown as is.
 */
export async function preparePayoutItems(
  db: Db,
  owner: PayoutOwner,
  items: PayoutItemInputValue[],
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
): Promise<PreparedWithdrawal[]> {
  const { prepared, errors } = await checkPayoutItems(db, owner, items, actor, prepareControls);
  const all = errors.flat();
  if (all.length > 0) {
    const rows = errors.filter((e) => e.length > 0).length;
    // Only references already used: the request is a retry of items already paid, a conflict, not bad input.
    const code = all.every((d) => d.code === 'duplicate_reference') ? 'duplicate_reference' : 'payout_items_invalid';
    throw new ApiError(code, `${rows} of ${items.length} payout items were refused; nothing was debited. See details (items[i] and its code).`, all);
  }
  return prepared as PreparedWithdrawal[];
}

/**
 * The checks of preparePayoutItems without the refusal: each row's prepared withdrawal or its refusals (the
 * dashboard's preview shows them per row, by the very code the API refuses with). Writes nothing.
 */
export async function checkPayoutItems(
  db: Db,
  owner: PayoutOwner,
  items: PayoutItemInputValue[],
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
): Promise<{ prepared: (PreparedWithdrawal | undefined)[]; errors: ErrorDetail[][] }> {
  const errors: ErrorDetail[][] = items.map(() => []);
  if (items.length === 0) return { prepared: [], errors };
  await refuseReusedReferences(db, owner, items, errors);
  const prepared: (PreparedWithdrawal | undefined)[] = new Array(items.length);
  for (let start = 0; start < items.length; start += CONCURRENCY) {
    await Promise.all(
      items.slice(start, start + CONCURRENCY).map(async (item, k) => {
        const i = start + k;
        try {
          const { amount, destinationAddress, chain, token } = item;
          const p = await prepareWithdrawal(db, owner, { amount, destinationAddress, chain, token }, actor, prepareControls, { maxRule: false });
          await refuseDepositAddress(db, p.destination);
          prepared[i] = p;
        } catch (err) {
          if (!(err instanceof ApiError) || err.status >= 500) throw err;
          errors[i]!.push(...rowDetails(i, err));
        }
      }),
    );
  }
  return { prepared, errors };
}

/** A reference twice in the request, or already an item of one of the tenant's payouts (per-item idempotency). */
async function refuseReusedReferences(db: Db, owner: PayoutOwner, items: PayoutItemInputValue[], errors: ErrorDetail[][]) {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const seen = first.get(item.reference);
    if (seen === undefined) first.set(item.reference, i);
    else errors[i]!.push({ path: `items[${i}].reference`, message: `repeats items[${seen}].reference`, code: 'duplicate_reference' });
  });
  const used = await db
    .select({ reference: payoutItems.reference, payoutId: payoutItems.payoutId })
    .from(payoutItems)
    .where(and(eq(payoutItems.tenantId, owner.tenantId), eq(payoutItems.mode, owner.mode), inArray(payoutItems.reference, [...first.keys()])));
  for (const u of used) {
    const i = first.get(u.reference)!;
    errors[i]!.push({ path: `items[${i}].reference`, message: `already used by payout ${u.payoutId}`, code: 'duplicate_reference' });
  }
}
