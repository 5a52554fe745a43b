import Link from 'next/link';
import { PRODUCT_NAME } from '@/lib/config/product';

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center bg-slate-50 px-4 pt-20">
      <Link href="/" className="mb-8 flex items-center gap-2 text-lg font-semibold text-slate-900">
        <span className="grid h-8 w-8 place-items-center rounded-md bg-indigo-600 text-sm text-white">₮</span>
        {PRODUCT_NAME}
      </Link>
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">{children}</div>
    </main>
  );
}
