import type { ScheduledJob } from './scheduled-job';
import { getNetworks, isNetworkReady, type Network } from '@/lib/chain/network';
import { watchChainLoop } from '@/lib/payments/watch-loop';
import { refillAddressPool } from '@/lib/chain/refill-address-pool';
import { MODES, type Mode } from '@/lib/mode';
import { familyOps } from '@/lib/chain/families';
import { createSettlements } from '@/lib/settlements/create-settlements';
import { expireInvoices } from '@/lib/invoices/expire-invoices';
import { runSettlements } from '@/lib/settlements/run-settlements';
import type { SettleNetwork } from '@/lib/settlements/settle-invoice';
import { perNetwork } from '@/lib/chain/per-network';

/** The chain watch job of a mode: one per mode for the local worker; Trigger.dev runs every mode's in one task. */
export const chainWatchJob = (mode: Mode) => `chain-watch-${mode}`;

const canSettle = (net: Network): net is SettleNetwork => Boolean(net.depositMnemonic && net.gasWalletKey && net.feeWallet && net.hotWalletKey);

const ready = (): Network[] => MODES.flatMap((m) => getNetworks(m)).filter(isNetworkReady);

/**
 * The invoice pipeline for the local worker, per configured network: chain
 * watch (a 55 s polling loop per mode), the deposit address pool, expiry,
 * settlement fan-out and settlement. jobs/invoices.ts runs the same entries for Trigger.dev.
 */
export const INVOICE_JOBS: ScheduledJob[] = [
  ...MODES.map((mode): ScheduledJob => ({
    name: chainWatchJob(mode),
    everyMs: 100,
    leaseMs: 90_000,
    run: (db, signal, opts) => watchChainLoop(db, mode, { signal, runForMs: opts?.runForMs ?? 55_000 }),
  })),
  {
    // Pre-derives deposit addresses so POST /v1/invoices only claims one (see claimDepositAddress).
    name: 'deposit-address-pool',
    everyMs: 5_000,
    leaseMs: 120_000,
    run: async (db, signal) => {
      const mnemonics = new Set(
        MODES.flatMap((m) =>
          getNetworks(m)
            .filter((n) => familyOps(n.chain).pooledAddresses)
            .map((n) => n.depositMnemonic),
        ).filter((m): m is string => Boolean(m)),
      );
      for (const mnemonic of mnemonics) await refillAddressPool(db, mnemonic, { target: 2_000, signal });
    },
  },
  {
    name: 'expire-invoices',
    everyMs: 2_000,
    leaseMs: 60_000,
    run: async (db) => {
      for (const net of ready()) await expireInvoices(db, net);
    },
  },
  {
    name: 'settlement-fanout',
    everyMs: 500,
    leaseMs: 60_000,
    run: async (db) => {
      for (const net of ready()) await createSettlements(db, net);
    },
  },
  {
    name: 'settle-invoices',
    everyMs: 500,
    leaseMs: 10 * 60_000,
    // Each network's settlements in a loop of its own, side by side: a hung node holds up only its own payouts.
    run: (db, signal, opts) =>
      perNetwork('settlement', ready().filter(canSettle), (net) => runSettlements(db, net, { signal }), {
        signal,
        runForMs: opts?.runForMs ?? 25_000,
        pollMs: 500,
      }),
  },
];
