'use client';

import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { setModeAction } from './actions';

/** Live/test toggle; the mode lives in a cookie and every query on the server filters by it. */
export function ModeSwitch({ mode }: { mode: 'live' | 'test' }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const test = mode === 'test';
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-700">
      <span className={test ? 'text-amber-700' : 'text-slate-500'}>Test mode</span>
      <button
        type="button"
        role="switch"
        aria-checked={test}
        aria-label="Test mode"
        disabled={pending}
        data-testid="mode-switch"
        onClick={() =>
          start(async () => {
            await setModeAction(test ? 'live' : 'test');
            router.refresh();
          })
        }
        className={`relative h-5 w-9 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${test ? 'bg-amber-500' : 'bg-slate-300'}`}
      >
        <span className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-all ${test ? 'left-[18px]' : 'left-0.5'}`} />
      </button>
    </label>
  );
}
