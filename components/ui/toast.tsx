'use client';

import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

type Tone = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  tone: Tone;
  message: string;
}

const ToastContext = createContext<(message: string, tone?: Tone) => void>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

let nextId = 1;

/** Outcome messages in a polite live region at the bottom right; fixed position, so nothing shifts. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((message: string, tone: Tone = 'success') => {
    const id = nextId++;
    setToasts((t) => [...t.slice(-3), { id, tone, message }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), tone === 'error' ? 8000 : 4000);
  }, []);
  const tones: Record<Tone, string> = {
    success: 'border-emerald-200 bg-white text-slate-800 [&>span]:bg-emerald-500',
    error: 'border-red-200 bg-white text-slate-800 [&>span]:bg-red-500',
    info: 'border-slate-200 bg-white text-slate-800 [&>span]:bg-sky-500',
  };
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div aria-live="polite" role="status" className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-80 flex-col gap-2">
        {toasts.map((t) => (
          <div
            key={t.id}
            data-toast={t.tone}
            className={`pointer-events-auto flex items-start gap-2 rounded-md border px-4 py-3 text-sm shadow-lg ${tones[t.tone]}`}
          >
            <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full" aria-hidden="true" />
            <p>{t.message}</p>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
