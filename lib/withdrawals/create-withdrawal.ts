import { sql } from 'drizzle-orm';
import { withdrawals } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { getNetwork } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import { formatAmount, Decimal } from '@/lib/money';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import type { Mode } from '@/lib/tenants/mode';
import { validateEndpointUrl } from '@/lib/webhooks/validate-endpoint-url';
import { parseWithdrawalAmount, withdrawalFee } from './amounts';
import { emitWithdrawalEvent } from './emit-withdrawal-event';
import type { CreateWithdrawalInput } from './schemas';
import { validateDestination } from './validate-destination';
import { withdrawalView } from './view';

/**
 * Creates an internal USDT withdrawal. In one transaction: lock the balance,
 * check amount + fee against it, debit both through the ledger, insert the
 * PENDING withdrawal and write withdrawal.created. Concurrent requests of one
 * tenant serialise on the balance row, so the balance never goes negative.
 */
export async function createWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  input: CreateWithdrawalInput,
) {
  const amount = parseWithdrawalAmount(input.amount);
  const network = getNetwork(owner.mode);
  const destination = await validateDestination(db, network, input.destinationAddress);
  // postBackUrl follows the spec: HTTPS only, never a private or local host.
  const postBackUrl = input.postBackUrl === undefined ? null : validateEndpointUrl(input.postBackUrl, 'live', 'postBackUrl');
  const fee = withdrawalFee(amount, owner.tenant.withdrawalFeeRate);
  const total = amount.plus(fee);
  const id = newId('withdrawal');

  return db.transaction(async (tx) => {
    const [balance] = rowsOf<{ available: string }>(
      await tx.execute(sql`
        select available::text as available from balances
         where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and currency = 'USDT'
         for update`),
    );
    const available = new Decimal(balance?.available ?? '0');
    if (available.lt(total)) {
      throw new ApiError(
        'insufficient_balance',
        `Insufficient balance: available ${formatAmount(available)} USDT, amount + fee needed ${formatAmount(total)} USDT.`,
        [{ path: 'amount', message: `amount ${formatAmount(amount)} + fee ${formatAmount(fee)} exceeds the available ${formatAmount(available)}` }],
      );
    }
    const common = { tenantId: owner.tenantId, mode: owner.mode, referenceType: 'withdrawal', referenceId: id };
    await postLedgerEntries(tx, [
      { ...common, amount: amount.neg().toFixed(), kind: 'withdrawal' },
      ...(fee.gt(0) ? [{ ...common, amount: fee.neg().toFixed(), kind: 'withdrawal_fee' }] : []),
    ]);
    const [row] = await tx
      .insert(withdrawals)
      .values({
        id,
        tenantId: owner.tenantId,
        mode: owner.mode,
        kind: 'internal',
        amount: amount.toFixed(),
        feeAmount: fee.toFixed(),
        netAmount: amount.toFixed(),
        destinationAddress: destination,
        chainId: network.chainId,
        postBackUrl,
      })
      .returning();
    await emitWithdrawalEvent(tx, row!, 'withdrawal.created');
    return withdrawalView(row!);
  });
}
