import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, chainTransfers, refundRequests } from '@/db/schema';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { newId } from '@/lib/ids';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { invoiceJobs, mineAndWatch, SCREENING_RAIL, withdrawOn, withScreeningChain } from '@/lib/testing/screening-chain';
import { freshTronAddress } from '@/lib/testing/tron-lane-helpers';
import { createInvoice, invoiceDetail, sendFromCustomer } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import { createUser } from '@/lib/users/create-user';
import { addAllowlistAddress } from '@/lib/withdrawal-controls/add-allowlist-address';
import { importScreeningList } from './import-list';
import { lastImportAdded, newlyListedReport, type AddedEntries } from './newly-listed-report';
import { readListFile, SHIPPED_LIST_PATH } from './screening-list';

/*
 * Issue 46 §2, existing rows when the list changes: an import reports which records already involve the addresses it
 * lists for the first time (allow-list entries, open withdrawals, payer refund proposals, payments received and the
 * invoices they paid, held payments), whatever spelling the row keeps (EIP-55, lower-case, T…). Before this the import
 * printed counts only.
 */
const eth = withScreeningChain();
const actor = { kind: 'system' as const, id: 'cli', label: 'test import' };

describe('the newly listed report', () => {
  it('lists every existing record touching a newly listed address, and nothing else', async () => {
    const { chain, net } = eth;
    const t = await createTestTenant({ name: 'Touched Ltd' });
    const other = await createTestTenant({ name: 'Untouched Ltd' });
    await creditAsset(t.db, t.tenant.id, 'USDT', '50');
    await creditAsset(t.db, other.tenant.id, 'USDT', '50');
    const jobs = invoiceJobs(t.db, net);
    await jobs();
    // A payment from the payer, credited before the payer is listed.
    const inv = await createInvoice(t.test, { amount: '10.00', ...SCREENING_RAIL });
    const payer = await sendFromCustomer(chain, 'USDT', inv.depositAddress, '10');
    await mineAndWatch(chain, jobs);
    expect((await invoiceDetail(t.test, inv.id)).amountReceived).toBe('10.00');
    const [payment] = await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id));
    // An open withdrawal (EIP-55 in its row), an allow-list entry of each family, a payer's refund proposal.
    const payee = freshAddress();
    const w = await withdrawOn(t.test, { amount: '5.00', destinationAddress: payee });
    expect(w.status, w.text).toBe(201);
    const clean = freshAddress();
    const wClean = await withdrawOn(other.test, { amount: '5.00', destinationAddress: clean });
    expect(wClean.status, wClean.text).toBe(201);
    const user = await createUser(t.db, {
      email: `nl-${process.pid}-${Date.now()}@example.com`,
      password: 'correct horse battery',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const s = { owner: { tenantId: t.tenant.id, mode: 'test' as const }, user, actor: userActor({ user }) };
    const allowed = freshAddress();
    const tron = freshTronAddress();
    await addAllowlistAddress(t.db, s, { address: allowed });
    await addAllowlistAddress(t.db, s, { address: tron });
    const proposed = freshAddress();
    const proposalId = newId('refundRequest');
    await t.db.insert(refundRequests).values({
      id: proposalId,
      tenantId: t.tenant.id,
      mode: 'test',
      invoiceId: inv.id,
      destinationAddress: proposed.toLowerCase(),
      amount: '1.00',
      source: 'payer_token',
    });

    // The import lists them (and the payer), each spelled as an SDN export would, lower-case.
    const target = path.join(mkdtempSync(path.join(tmpdir(), 'sdn-report-')), 'ofac-sdn.json');
    copyFileSync(SHIPPED_LIST_PATH, target);
    const shipped = readListFile(SHIPPED_LIST_PATH).snapshot.families;
    const rows = [...shipped.evm.entries.map((e) => `ETH,${e}`), ...shipped.tron.entries.map((e) => `TRX,${e}`)];
    for (const a of [payer, payee, allowed, proposed]) rows.push(`ETH,${a.toLowerCase()}`);
    rows.push(`USDT,${tron}`);
    const report = await importScreeningList(t.db, ['asset,address', ...rows].join('\n'), { date: '2099-01-01', actor, target });
    expect(report.counts.evm).toMatchObject({ added: 4 });
    expect(report.counts.tron).toMatchObject({ added: 1 });

    const mine = report.touched.filter((r) => r.tenantId === t.tenant.id);
    expect(mine.map((r) => [r.kind, r.address.toLowerCase()]).sort()).toEqual(
      [
        ['allowlist', allowed.toLowerCase()],
        ['allowlist', tron.toLowerCase()],
        ['payment', payer.toLowerCase()],
        ['refund_request', proposed.toLowerCase()],
        ['withdrawal', payee.toLowerCase()],
      ].sort(),
    );
    expect(mine.find((r) => r.kind === 'payment')).toMatchObject({
      id: payment!.id,
      amount: '10.00',
      token: 'USDT',
      invoiceId: inv.id,
      tenantName: 'Touched Ltd',
    });
    expect(mine.find((r) => r.kind === 'withdrawal')).toMatchObject({ id: w.body.id, status: 'PENDING', amount: '5.00' });
    expect(mine.find((r) => r.kind === 'refund_request')).toMatchObject({ id: proposalId, status: 'PENDING', invoiceId: inv.id });
    expect(report.touched.some((r) => r.tenantId === other.tenant.id || r.address.toLowerCase() === clean.toLowerCase())).toBe(false);

    // The import's audit entry keeps what it added: the console recomputes the report from it.
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'screening.list_imported'), eq(auditLog.targetId, report.version)));
    const added = (audit!.after as { added: AddedEntries }).added;
    expect(added.evm).toHaveLength(4);
    expect(await newlyListedReport(t.db, added)).toEqual(report.touched);
    expect(await lastImportAdded(t.db)).not.toBeNull();
    expect(await newlyListedReport(t.db, {})).toEqual([]);
  });
});
