'use client';

import { inputClass } from './field';

/** The TOTP code a sensitive dashboard action asks for when the user has 2FA on (nothing when off). */
export function StepUpField({ id, enabled, value, onChange }: { id: string; enabled: boolean; value: string; onChange: (v: string) => void }) {
  if (!enabled) return null;
  return (
    <div className="w-48">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        Authenticator code
      </label>
      <input
        id={id}
        name="totpCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        className={inputClass}
        value={value}
        onChange={(e) => onChange(e.target.value.trim())}
      />
    </div>
  );
}
