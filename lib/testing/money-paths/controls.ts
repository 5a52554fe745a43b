import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { heldPayments } from '@/db/schema';
import type { Actor, Control, MoneyPathId } from '@/lib/money-paths';
import { decidePayoutApproval } from '@/lib/payouts/decide-payout-approval';
import { decideWithdrawalApproval } from '@/lib/withdrawal-controls/decide-withdrawal-approval';
import { api, credOf, homeEntry, newestWithdrawal, type PathRunner, type Subject, type Try, type Variant } from './entries';
import { OVER_THRESHOLD, type World } from './world';

/** What a refusal must leave as it was (a path whose attempt may leave its own link or request: the money only). */
export async function snapshot(w: World, r: PathRunner) {
  const all = await w.written();
  const extra = r.written ? await r.written(w) : {};
  return r.moneyOnly ? { ledger: all.ledger, withdrawals: all.withdrawals, ...extra } : { ...all, ...extra };
}

/**
 * An allowed actor on a path, every declared control tried through the actor's own entry: each control's
 * refusal writes nothing; above the threshold the withdrawal waits for the owner (nothing paid; then rejected, so
 * the 24 h limit is not used up by the test); then the plain attempt is done.
 */
export async function tryAllowed(w: World, id: MoneyPathId, r: PathRunner, actor: Actor, controls: Control[]) {
  const home = homeEntry(actor);
  const run = r.entries[home];
  expect(run, `${id}: no ${home} entry for ${actor}`).toBeDefined();
  const base: Variant = { amount: r.amount, destination: r.destination(w), totpCode: controls.includes('step_up') ? w.code() : undefined };
  const attempt = async (v: Variant): Promise<{ t: Try; s: Subject }> => {
    if (home === 'job') await w.quiet();
    const s = await r.subject(w, v);
    return { t: await run!(w, s, credOf(actor, home, w, s), v), s };
  };
  const refused = async (what: string, v: Variant, code?: string) => {
    if (home === 'job') await w.quiet();
    const s = await r.subject(w, v);
    const before = await snapshot(w, r);
    const t = await run!(w, s, credOf(actor, home, w, s), v);
    expect(t.ok, `${id} · ${actor} · ${what}: ${JSON.stringify(t)}`).toBe(false);
    if (code && !t.ok) expect(t.code, `${id} · ${actor} · ${what}`).toBe(code);
    expect(await snapshot(w, r), `${id} · ${actor} · ${what}: a refusal wrote something`).toEqual(before);
  };

  if (controls.includes('step_up')) await refused('step-up', { ...base, totpCode: undefined }, 'two_factor_required');
  if (controls.includes('allowlist'))
    for (const miss of r.unlisted(w))
      await refused(`allow-list ${JSON.stringify(miss)}`, { ...base, ...miss }, home === 'job' ? undefined : 'destination_not_allowed');
  if (controls.includes('delay')) await refused('delay', { ...base, now: new Date() });
  if (controls.includes('minimum') && r.belowMinimum) await refused('minimum', { ...base, amount: r.belowMinimum });
  if (
    controls.includes('screening') &&
    r.screened &&
    ['withdrawal', 'batch_payout', 'merchant_refund', 'payer_proposal', 'claim_link_redeem'].includes(id)
  )
    await refused('screening', { ...base, destination: r.screened(w) });
  if (controls.includes('approval_threshold')) {
    if (id === 'exchange_withdrawal') await refused('threshold', { ...base, amount: OVER_THRESHOLD }, 'approval_required');
    else {
      const { t } = await attempt({ ...base, amount: OVER_THRESHOLD });
      expect(t.ok, `${id} · ${actor} · threshold: ${JSON.stringify(t)}`).toBe(true);
      const held = await newestWithdrawal(w);
      expect(held, `${id} · ${actor} · threshold: held, nothing paid`).toMatchObject({
        status: 'PENDING',
        pendingReason: 'awaiting_approval',
        txHash: null,
      });
      expect(Number(held!.amount)).toBe(Number(OVER_THRESHOLD));
      // A batch is held and decided as ONE approval, the payout's (its item alone cannot be decided).
      if (id === 'batch_payout') await decidePayoutApproval(w.db, w.ownerSession, t.ok ? t.data.id : '', 'reject', {});
      else await decideWithdrawalApproval(w.db, w.ownerSession, held!.id, 'reject', {});
    }
  }
  if (controls.includes('daily_limit')) {
    // 20.00 of the limit left (a held withdrawal of an admin key uses the rest), then 21.00 asked: under the threshold, over the limit.
    const filler = await api(
      'POST',
      '/v1/withdrawals',
      { sid: null, key: w.keys.admin, token: null },
      {
        amount: (Number(await w.remaining()) - 20).toFixed(2),
        destinationAddress: w.listed,
      },
    );
    expect(filler.ok && filler.data.pendingReason, JSON.stringify(filler)).toBe('awaiting_approval');
    await refused('24 h limit', { ...base, amount: '21.00' }, home === 'job' ? undefined : 'withdrawal_limit_exceeded');
    await decideWithdrawalApproval(w.db, w.ownerSession, (filler as { data: { id: string } }).data.id, 'reject', {});
  }

  if (controls.includes('payer_signature')) await refused('payer signature', { ...base, foreignSigner: true }, 'permit_invalid_signature');
  if (controls.includes('payer_permission')) await refused('payer permission revoked', { ...base, revoked: true });

  const { t, s } = await attempt(base);
  expect(t.ok, `${id} · ${actor} · allowed: ${JSON.stringify(t)}`).toBe(true);
  if (controls.includes('once_per_period')) {
    // The same period again (a re-run, or any other actor's attempt): nothing more leaves the payer.
    const before = await snapshot(w, r);
    const again = await run!(w, s, credOf(actor, home, w, s), base);
    expect(again.ok, `${id} · ${actor} · once per period: ${JSON.stringify(again)}`).toBe(false);
    expect(await snapshot(w, r)).toEqual(before);
  }
  if (controls.includes('sender_only')) {
    const [p] = await w.db.select().from(heldPayments).where(eq(heldPayments.id, s.paymentId!));
    expect(p, 'sent back to its sender only').toMatchObject({ status: 'refunding', refundAddress: p!.fromAddress });
  }
}
