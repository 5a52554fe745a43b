'use client';

import { Button } from '@/components/ui/button';

/** A page that failed to render: say so plainly and offer a retry (details are in the server log). */
export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-white p-8 text-center">
      <h1 className="text-lg font-semibold text-slate-900">This page could not be loaded</h1>
      <p className="mt-1 text-sm text-slate-500">Something went wrong on our side. Your data is safe; try again.</p>
      <Button className="mt-4" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
