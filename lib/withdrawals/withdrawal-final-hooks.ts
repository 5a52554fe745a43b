import type { Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';

/** Runs in the transaction that made the withdrawal COMPLETED or FAILED: what it changes commits or rolls back with it. */
export type WithdrawalFinalHook = (tx: Db, withdrawal: Withdrawal) => Promise<void>;

interface Registry {
  installed: boolean;
  hooks: Map<string, WithdrawalFinalHook>;
}

// On globalThis: Next bundles instrumentation and route handlers separately, and both must see one list.
const key = Symbol.for('gateway.withdrawalFinalHooks');
const registry = ((globalThis as { [key]?: Registry })[key] ??= { installed: false, hooks: new Map() });

/**
 * Lets a domain above withdrawals react to a withdrawal's final state without withdrawals importing it
 * (a held payment sent back is `refunded` only when its withdrawal completes). Called from the one
 * composition point, lib/payment-hooks.ts; registering a name again replaces it.
 */
export function onWithdrawalFinal(name: string, run: WithdrawalFinalHook): void {
  registry.hooks.set(name, run);
  registry.installed = true;
}

/**
 * Runs every hook. Throws when none was ever installed: a process that forgot the composition point
 * would complete a send-back's withdrawal and leave its held payment `refunding` for good.
 */
export async function runWithdrawalFinalHooks(tx: Db, withdrawal: Withdrawal): Promise<void> {
  if (!registry.installed) throw new Error('withdrawal hooks not installed: call installPaymentHooks() (lib/payment-hooks.ts) at start-up');
  for (const run of registry.hooks.values()) await run(tx, withdrawal);
}
