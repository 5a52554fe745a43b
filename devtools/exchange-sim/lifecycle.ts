import type { Address, Hex } from 'viem';
import type { SimChain } from './chain';
import { applyDeposit, type SimOrder } from './orders';
import type { SimRail } from './rails';

export interface LifecycleOptions {
  /** Off-chain coins: time from the simulated deposit to its confirmation. */
  confirmMs: number;
  exchangeMs: number;
  /** Off-chain payouts: time from WITHDRAW to DONE. */
  withdrawMs: number;
}

const FINAL = new Set(['DONE']);

/**
 * One step of every open order: on-chain deposits to the deposit addresses
 * of orders paid in a rail (each rail's chain and token), confirmations, the
 * exchange and withdraw stages (a real token payout when the to-currency is
 * a rail) and expiry of unpaid orders.
 */
/** Rails scanned at least once: from then on a scan starts after the last block seen. */
const scanned = new WeakSet<SimRail>();

export async function tickOrders(orders: Map<string, SimOrder>, rails: Map<string, SimRail>, opts: LifecycleOptions, log: (msg: string) => void) {
  const now = Date.now();
  const open = [...orders.values()].filter(
    (o) => !FINAL.has(o.status) && !(o.status === 'EMERGENCY' && o.emergency.choice === 'NONE' && !rails.has(o.from.code)),
  );
  // Each rail's head and its new deposits; every rail with an open order is scanned each tick, so none falls behind.
  const heads = new Map<string, bigint>();
  for (const [code, rail] of rails) {
    // A rail no open order pays from is not read (an idle dev stack polled every chain four times a second),
    // once its first scan has set where the next one starts: no deposit to a later order is missed.
    if (scanned.has(rail) && !open.some((o) => o.from.code === code)) continue;
    const watched = new Map<string, SimOrder>();
    for (const o of open) if (o.from.code === code && ['NEW', 'EXPIRED', 'PENDING', 'EMERGENCY'].includes(o.status)) watched.set(o.from.address, o);
    heads.set(code, await rail.head());
    for (const d of await rail.scan(new Set(watched.keys()))) {
      const o = watched.get(d.to)!;
      applyDeposit(o, d.amount, d.txHash, now);
      o.depositBlock ??= d.blockNumber;
    }
    scanned.add(rail);
  }
  for (const o of open) {
    switch (o.status) {
      case 'NEW':
        if (now >= o.times.expiration) setStatus(o, 'EXPIRED', now);
        break;
      case 'PENDING': {
        const head = heads.get(o.from.code);
        if (head !== undefined) {
          if (o.depositBlock === null) break;
          const conf = Number(head - o.depositBlock) + 1;
          o.from.tx.confirmations = conf;
          if (conf >= o.from.reqConfirmations) toExchange(o, now, opts);
        } else if (now >= o.stepAt) {
          o.from.tx.confirmations = o.from.reqConfirmations;
          toExchange(o, now, opts);
        }
        break;
      }
      case 'EXCHANGE':
        if (now >= o.stepAt) {
          setStatus(o, 'WITHDRAW', now);
          o.stepAt = now + opts.withdrawMs;
          const payout = rails.get(o.to.code);
          if (payout) startPayout(o, payout, log);
        }
        break;
      case 'WITHDRAW': {
        const chain = rails.get(o.to.code);
        if (chain) {
          if (!o.payoutHash) break;
          if (o.payoutHash === 'sending') break;
          const r = await chain.receipt(o.payoutHash as Hex);
          if (r?.status === 'success') {
            o.to.tx = { ...o.to.tx, timeBlock: Math.floor(now / 1000), confirmations: 1 };
            finish(o, now);
          } else if (r) {
            log(`payout ${o.payoutHash} of order ${o.id} reverted; retrying`);
            o.payoutHash = null;
            startPayout(o, chain, log);
          }
        } else if (now >= o.stepAt) {
          o.to.tx = {
            id: `sim${o.id}${now.toString(16)}`,
            amount: o.to.amount,
            fee: '0',
            ccyfee: '0',
            timeReg: Math.floor(now / 1000),
            timeBlock: Math.floor(now / 1000),
            confirmations: 1,
          };
          finish(o, now);
        }
        break;
      }
    }
  }
}

function setStatus(o: SimOrder, status: SimOrder['status'], now: number) {
  o.status = status;
  o.times.update = now;
}

function toExchange(o: SimOrder, now: number, opts: LifecycleOptions) {
  setStatus(o, 'EXCHANGE', now);
  o.stepAt = now + opts.exchangeMs;
}

function finish(o: SimOrder, now: number) {
  setStatus(o, 'DONE', now);
  o.times.finish = now;
}

function startPayout(o: SimOrder, chain: SimChain, log: (msg: string) => void) {
  o.payoutHash = 'sending';
  chain
    .send(o.to.address as Address, o.to.amount)
    .then((hash) => {
      o.payoutHash = hash;
      o.to.tx = { id: hash, amount: o.to.amount, fee: '0', ccyfee: '0', timeReg: Math.floor(Date.now() / 1000), timeBlock: null, confirmations: 0 };
    })
    .catch((err) => {
      log(`payout of order ${o.id} failed: ${String((err as Error).message).split('\n')[0]}; retrying`);
      o.payoutHash = null;
      // Retried on a later tick by going back to EXCHANGE with an immediate step.
      o.status = 'EXCHANGE';
      o.stepAt = Date.now() + 1000;
    });
}
