import { schedules, task } from '@trigger.dev/sdk';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/lib/db';
import { getNetwork, isNetworkReady } from '@/lib/chain/network';
import { watchChainLoop } from '@/lib/invoices/watch-loop';
import { refillAddressPool } from '@/lib/chain/refill-address-pool';
import { createSettlements } from '@/lib/invoices/create-settlements';
import { expireInvoices } from '@/lib/invoices/expire-invoices';
import { runSettlements } from '@/lib/invoices/run-settlements';
import type { SettleNetwork } from '@/lib/invoices/settle-invoice';
import { MODES, type Mode } from '@/lib/tenants/mode';
import { installPaymentHooks } from '@/lib/payment-hooks';

// Trigger.dev loads this file in its own process: the invoice event hooks must be in place before any task runs.
installPaymentHooks();

/** Trigger.dev: the chain watcher, one minute-long polling run per schedule tick for every configured mode. */
export const chainWatchTask = schedules.task({
  id: 'chain-watch',
  cron: '* * * * *',
  maxDuration: 120,
  run: async () => {
    const db = await getDb();
    await Promise.all(MODES.map((mode) => watchChainLoop(db, mode, { runForMs: 55_000 })));
  },
});

export const expireInvoicesTask = schedules.task({
  id: 'expire-invoices',
  cron: '* * * * *',
  run: async () => {
    const db = await getDb();
    for (const mode of MODES) {
      const net = getNetwork(mode);
      if (isNetworkReady(net)) await expireInvoices(db, net);
    }
  },
});

/** Keeps pre-derived deposit addresses ready so POST /v1/invoices only claims one (the local worker's deposit-address-pool job). */
export const depositAddressPoolTask = schedules.task({
  id: 'deposit-address-pool',
  cron: '* * * * *',
  run: async () => {
    const db = await getDb();
    const mnemonics = new Set(MODES.map((m) => getNetwork(m).depositMnemonic).filter((m): m is string => Boolean(m)));
    for (const mnemonic of mnemonics) await refillAddressPool(db, mnemonic, { target: 2_000 });
  },
});

/** One run per settlement; the idempotency key (the settlement id) stops a second run being queued for it. */
export const settleInvoiceTask = task({
  id: 'settle-invoice',
  maxDuration: 600,
  // Retries and backoff live in the settlement row (attempts, nextAttemptAt), shared with the local worker.
  retry: { maxAttempts: 1 },
  run: async (payload: { settlementId: string; mode: Mode }) => {
    const net = getNetwork(payload.mode) as SettleNetwork;
    return runSettlements(await getDb(), net, { only: payload.settlementId });
  },
});

/** Fan-out: creates settlements for confirmed invoices and unswept funds, and queues one settle-invoice run each. */
export const settlementFanOutTask = schedules.task({
  id: 'settlement-fanout',
  cron: '* * * * *',
  run: async () => {
    const db = await getDb();
    for (const mode of MODES) {
      const net = getNetwork(mode);
      if (!isNetworkReady(net)) continue;
      await createSettlements(db, net);
      // New settlements and retries that fell due; the key includes the attempt so each retry is queued once.
      const due = rowsOf<{ id: string; attempts: number }>(
        await db.execute(sql`
          select id, attempts from settlements
           where chain_id = ${net.chainId} and mode = ${mode} and status in ('pending', 'processing')
             and next_attempt_at <= now() and (locked_until is null or locked_until < now())
           order by next_attempt_at limit 500`),
      );
      for (const s of due) await settleInvoiceTask.trigger({ settlementId: s.id, mode }, { idempotencyKey: `${s.id}:${s.attempts}` });
    }
  },
});
