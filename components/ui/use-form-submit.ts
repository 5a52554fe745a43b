'use client';

import { useState } from 'react';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { fieldErrors } from '@/lib/dashboard/form-errors';

/**
 * The state every dashboard form keeps around a server action: field errors,
 * the form-level error and busy. `submit` stops on the client's own field
 * problems; otherwise it clears the errors, runs the action and, when the
 * server refuses, shows its field errors and message (the same checks on both
 * sides, so a form never needs a round trip to show a field problem).
 * It resolves to `{ data }` on success, else null (data may itself be undefined).
 */
export function useFormSubmit() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit<T>(problems: Record<string, string> | null, action: () => Promise<ActionResult<T>>): Promise<{ data: T } | null> {
    if (problems && Object.keys(problems).length > 0) {
      setErrors(problems);
      return null;
    }
    setErrors({});
    setFormError(null);
    setBusy(true);
    const res = await action();
    setBusy(false);
    if (!res.ok) {
      setErrors(fieldErrors(res.error.details));
      setFormError(res.error.message);
      return null;
    }
    return { data: res.data };
  }

  return { errors, setErrors, formError, busy, submit };
}
