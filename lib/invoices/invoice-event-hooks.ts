import type { Db } from '@/lib/db';
import type { EventType } from '@/lib/events/types';

/** What a hook sees of each invoice event written in the transaction. */
export interface InvoiceEventRef {
  invoiceId: string;
  type: EventType;
}

/** Runs in the transaction that wrote the events: what it changes commits or rolls back with them. */
export type InvoiceEventHook = (tx: Db, items: InvoiceEventRef[]) => Promise<void>;

interface Registry {
  installed: boolean;
  hooks: Map<string, { types: readonly EventType[]; run: InvoiceEventHook }>;
}

// On globalThis: Next bundles instrumentation and route handlers separately, and both must see one list.
const key = Symbol.for('gateway.invoiceEventHooks');
const registry = ((globalThis as { [key]?: Registry })[key] ??= { installed: false, hooks: new Map() });

/**
 * Lets another domain (the storefront) react to invoice events without
 * invoices importing it. Called from one composition point
 * (lib/payment-hooks.ts); registering a name again replaces it.
 */
export function onInvoiceEvents(name: string, types: readonly EventType[], run: InvoiceEventHook): void {
  registry.hooks.set(name, { types, run });
  registry.installed = true;
}

/**
 * Runs every hook interested in one of the events. Throws when no hook was
 * ever installed: a process that forgot the composition point would otherwise
 * confirm invoices and silently leave their orders unpaid.
 */
export async function runInvoiceEventHooks(tx: Db, items: InvoiceEventRef[]): Promise<void> {
  if (!registry.installed) throw new Error('invoice event hooks not installed: call installPaymentHooks() (lib/payment-hooks.ts) at start-up');
  for (const { types, run } of registry.hooks.values()) {
    if (items.some((i) => types.includes(i.type))) await run(tx, items);
  }
}
