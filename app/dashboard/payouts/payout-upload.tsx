'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { tableClass, tdClass, thClass } from '@/components/ui/card';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { addressRuleOf } from '@/lib/chain/address-rules';
import { networkLabel } from '@/lib/checkout/network-label';
import type { Asset, ChainKey } from '@/lib/config/rails';
import { PAYOUT_CSV_COLUMNS, parsePayoutCsv } from '@/lib/payouts/payout-csv';
import type { PayoutPreview } from '@/lib/payouts/preview-payout';
import { createPayoutAction, previewPayoutAction } from './actions';
import { ScrollHint } from '@/components/ui/scroll-hint';

/** USDT and USDC are shown to the cent (the fee rule's minor unit, lib/money chargedFee). */
const DP = 2;

/**
 * Upload or paste → preview (every row through the API's own checks, server-side; nothing debited) → ONE
 * confirmation with the totals per asset (step-up when 2FA is on) → the payout's live page. The text area is the
 * batch: an uploaded file fills it, and a bad row is fixed by editing it (or uploading again), then previewed again.
 */
export function PayoutUpload({ rails, totpEnabled }: { rails: { chain: ChainKey; token: Asset }[]; totpEnabled: boolean }) {
  const router = useRouter();
  const [text, setText] = useState('');
  const [rows, setRows] = useState<Record<string, string>[]>([]);
  const [preview, setPreview] = useState<PayoutPreview | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [totpCode, setTotpCode] = useState('');
  const { formError, setFormError, busy, run } = useFormSubmit();
  // The example names each rail's address form as its family gives it (0x… on EVM, T… on TRON).
  const example = [
    PAYOUT_CSV_COLUMNS.join(','),
    ...rails.slice(0, 2).map((r, i) => `${addressRuleOf(r.chain).example},10.00,${r.chain},${r.token},payroll-${i + 1}`),
  ].join('\n');

  async function check(source = text) {
    setPreview(null);
    const parsed = parsePayoutCsv(source);
    if (parsed.error) return setFormError(parsed.error);
    if (parsed.rows.length === 0) return setFormError('The file has a header row but no payout rows.');
    setRows(parsed.rows);
    const res = await run(() => previewPayoutAction({ items: parsed.rows }));
    if (res.ok) setPreview(res.data);
  }

  async function upload(file: File | undefined) {
    if (!file) return;
    const content = await file.text();
    setText(content);
    await check(content);
  }

  async function confirm() {
    const res = await run(() => createPayoutAction({ items: rows }, { totpCode }));
    if (!res.ok) return;
    setConfirming(false);
    router.push(`/dashboard/payouts/${res.data.id}`);
  }

  const ready = preview !== null && preview.invalidRows === 0 && preview.totals.every((t) => t.short === null);
  return (
    <div className="space-y-4">
      <FormError message={confirming ? null : formError} />
      <div className="grid gap-4 md:grid-cols-[1fr_14rem]">
        <Field
          id="payout-csv"
          label="Rows (CSV: a header row, then one recipient per line)"
          hint={`Columns: ${PAYOUT_CSV_COLUMNS.join(', ')}. Edit a row here and preview again to fix it.`}
        >
          <textarea
            id="payout-csv"
            rows={6}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setPreview(null);
            }}
            placeholder={example}
            spellCheck={false}
            className={`${inputClass} font-mono text-xs`}
          />
        </Field>
        <div className="space-y-2">
          <label htmlFor="payout-file" className="block text-sm font-medium text-slate-700">
            Or upload a CSV file
          </label>
          <input
            id="payout-file"
            type="file"
            accept=".csv,text/csv,text/plain"
            onChange={(e) => void upload(e.target.files?.[0])}
            className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2"
          />
          <Button variant="secondary" onClick={() => check()} disabled={busy || !text.trim()} className="w-full">
            Preview
          </Button>
        </div>
      </div>

      {preview && (
        <section aria-labelledby="preview-title" className="space-y-3">
          <h3 id="preview-title" className="text-sm font-semibold text-slate-900">
            Preview: {rows.length} row{rows.length === 1 ? '' : 's'},{' '}
            <span data-testid="preview-invalid" className={preview.invalidRows ? 'text-red-700' : 'text-emerald-700'}>
              {preview.invalidRows === 0 ? 'every row passes' : `${preview.invalidRows} with errors`}
            </span>
          </h3>
          <ScrollHint id="preview-scroll" />
          <div className="-mx-5 overflow-x-auto" data-testid="preview-table" tabIndex={0} aria-describedby="preview-scroll">
            <table className={tableClass}>
              <thead>
                <tr>
                  {['#', 'Reference', 'Network', 'Destination', 'Amount', 'Fee', 'Result'].map((h) => (
                    <th key={h} className={thClass}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((r) => {
                  const row = rows[r.position] ?? {};
                  const bad = r.errors.length > 0;
                  return (
                    <tr key={r.position} data-row={r.position} data-invalid={bad || undefined} className={bad ? 'bg-red-50' : ''}>
                      <td className={tdClass}>{r.position + 1}</td>
                      <td className={`${tdClass} font-mono text-xs`}>{row.reference}</td>
                      <td className={tdClass}>
                        {row.token} · {row.chain}
                      </td>
                      <td className={`${tdClass} max-w-48 font-mono text-xs break-all whitespace-normal`}>{row.destinationAddress}</td>
                      <td className={tdClass}>{row.amount}</td>
                      <td className={tdClass}>{r.feeAmount ? <Money value={r.feeAmount} currency={null} dp={DP} /> : '—'}</td>
                      <td className={`${tdClass} whitespace-normal`}>
                        {bad ? (
                          <ul className="min-w-52 space-y-0.5 text-xs text-red-700" data-testid="row-errors">
                            {r.errors.map((e, k) => (
                              <li key={k}>
                                <span className="font-medium">{e.field}</span>: {e.message} <span className="text-red-500">({e.code})</span>
                              </li>
                            ))}
                          </ul>
                        ) : (
                          <span className="text-xs text-emerald-700">✓ ready</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Totals preview={preview} />
          {preview.held && (
            <p className="text-sm text-amber-700">Above the approval threshold: the whole batch waits for one approval before anything is sent.</p>
          )}
          <div className="flex justify-end">
            <Button onClick={() => (setFormError(null), setConfirming(true))} disabled={busy || !ready}>
              Pay {rows.length} recipient{rows.length === 1 ? '' : 's'}
            </Button>
          </div>
        </section>
      )}

      <ConfirmStep
        open={confirming && preview !== null}
        title="Confirm payout"
        confirmLabel="Confirm payout"
        busy={busy}
        error={formError}
        stepUp={{ id: 'payout-totp', enabled: totpEnabled, value: totpCode, onChange: setTotpCode }}
        onCancel={() => setConfirming(false)}
        onConfirm={confirm}
        rows={[
          { label: 'Recipients', value: String(rows.length) },
          ...(preview?.totals ?? []).map((t) => ({
            label: `Total ${t.token}`,
            value: (
              <>
                <Money value={t.total} currency={t.token} dp={DP} /> (amounts {t.amount} + fees {t.feeAmount})
              </>
            ),
          })),
          { label: 'Networks', value: [...new Set(rows.map((r) => r.chain))].map((c) => labelOf(c)).join(', ') },
        ]}
        note="Every amount and fee is debited now, all or nothing; each recipient is then sent from the hot wallet. A transaction on chain cannot be undone."
      />
    </div>
  );
}

const labelOf = (chain: string) => {
  try {
    return networkLabel(chain as ChainKey);
  } catch {
    return chain;
  }
};

function Totals({ preview }: { preview: PayoutPreview }) {
  if (preview.totals.length === 0) return null;
  return (
    <dl className="grid gap-3 sm:grid-cols-2" aria-live="polite">
      {preview.totals.map((t) => (
        <div key={t.token} className="rounded-md bg-slate-50 p-3 text-sm" data-testid={`total-${t.token}`}>
          <dt className="text-slate-500">Total {t.token} debited (amounts + fees)</dt>
          <dd className="mt-1 font-medium">
            <Money value={t.total} currency={t.token} dp={DP} />{' '}
            <span className="text-xs font-normal text-slate-500">
              = <Money value={t.amount} currency={null} dp={DP} /> + <Money value={t.feeAmount} currency={null} dp={DP} /> fees · available{' '}
              <Money value={t.available} currency={null} dp={DP} />
            </span>
            {t.short && (
              <p className="mt-1 text-xs text-red-700">
                Short by <Money value={t.short} currency={t.token} dp={DP} />: nothing can be paid until the balance covers it.
              </p>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
