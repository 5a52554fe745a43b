import type { ReactNode } from 'react';
import { ADDRESS_RULES } from '@/lib/chain/address-rules';
import type { ChainFamily } from '@/lib/config/rails';

/**
 * The browser's first check of the address, from the refund network's family (lib/chain/address-rules.ts; the
 * server parses it for real: lib/destinations/check-destination.ts), so a payer who pastes the wrong network's
 * form is told before posting, JavaScript or not.
 */
function addressInput(family: ChainFamily) {
  const rule = ADDRESS_RULES[family];
  // The pattern attribute is anchored by the browser: the rule's source without its ^…$.
  return { placeholder: rule.placeholder, pattern: rule.pattern.source.replace(/^\^|\$$/g, ''), title: `A ${rule.name} address: ${rule.shape}` };
}

/**
 * The payer's refund address form, on their checkout (refund-section.tsx) and on a merchant's claim link
 * (app/refund-claim): a plain server action form, so it posts without JavaScript too. The caller keeps the
 * `useActionState` (its result decides what the page shows next) and passes its action, pending flag and error.
 */
export function RefundAddressForm({
  action,
  pending,
  error,
  inputId,
  label,
  hidden,
  submitLabel,
  intro,
  note,
  addressFamily = 'evm',
}: {
  action: (formData: FormData) => void;
  pending: boolean;
  error?: string;
  inputId: string;
  label: string;
  /** What the server action needs besides the address (the claim token, the invoice id). */
  hidden: Record<string, string>;
  submitLabel: string;
  /** Shown above the address field. */
  intro?: ReactNode;
  /** Shown under the button. */
  note: ReactNode;
  /** The refund network's address form (default EVM). */
  addressFamily?: ChainFamily;
}) {
  const input = addressInput(addressFamily);
  return (
    <form action={action} className="space-y-2" aria-label="Refund address">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {intro}
      <label className="block text-xs font-medium text-slate-500" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        name="address"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder={input.placeholder}
        pattern={input.pattern}
        title={input.title}
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
      />
      {error ? (
        <p role="alert" className="text-sm text-rose-700">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-slate-900 px-4 py-2.5 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? 'Sending…' : submitLabel}
      </button>
      <p className="text-xs text-slate-500">{note}</p>
    </form>
  );
}
