'use client';

import { useState } from 'react';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { fieldErrors } from '@/lib/dashboard/form-errors';

type ActionError = Extract<ActionResult<unknown>, { ok: false }>['error'];

/** For a form with no field to show the server's details by: the first detail joins the message. */
export const withFirstDetail = (e: ActionError) => {
  const detail = e.details?.[0]?.message;
  // Many messages already say their detail ("amount: must have at most 2 decimals"): never the same words twice.
  return detail && !e.message.includes(detail) ? `${e.message} (${detail})` : e.message;
};

/**
 * The state every dashboard form or action button keeps around a server action:
 * field errors, the form-level error and busy (scripts/form-state.test.ts fails
 * on a client component that keeps its own busy flag instead).
 * `submit` stops on the client's own problems (per field, or one form-level
 * message); otherwise it runs the action like `run`, resolving to `{ data }` on
 * success, else null (data may itself be undefined). `run` is for buttons with
 * nothing to check: it resolves to the action's own result, so a caller can
 * toast a refusal instead of showing `formError`.
 * `message` words the form-level error from the server's refusal.
 */
export function useFormSubmit({ message = (e: ActionError) => e.message }: { message?: (e: ActionError) => string } = {}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run<T>(action: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
    setErrors({});
    setFormError(null);
    setBusy(true);
    let res: ActionResult<T>;
    try {
      res = await action();
    } finally {
      setBusy(false);
    }
    if (!res.ok) {
      setErrors(fieldErrors(res.error.details));
      setFormError(message(res.error));
    }
    return res;
  }

  async function submit<T>(problems: Record<string, string> | string | null, action: () => Promise<ActionResult<T>>): Promise<{ data: T } | null> {
    if (typeof problems === 'string' && problems !== '') {
      setErrors({});
      setFormError(problems);
      return null;
    }
    if (typeof problems === 'object' && problems && Object.keys(problems).length > 0) {
      setErrors(problems);
      setFormError(null);
      return null;
    }
    const res = await run(action);
    return res.ok ? { data: res.data } : null;
  }

  return { errors, setErrors, formError, setFormError, busy, submit, run };
}
