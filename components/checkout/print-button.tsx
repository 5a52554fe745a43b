'use client';

/** The browser's print dialog: a paper receipt or a PDF ("Save as PDF") without a PDF library. */
export function PrintButton() {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="flex-1 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
    >
      Print or save
    </button>
  );
}
