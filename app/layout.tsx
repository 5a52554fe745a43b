import type { Metadata } from 'next';
import { connection } from 'next/server';
import { PRODUCT_NAME } from '@/lib/config/product';
import './globals.css';

export const metadata: Metadata = {
  // Pages set their own part ('Invoices'); the template adds the product's name.
  title: { default: PRODUCT_NAME, template: `%s · ${PRODUCT_NAME}` },
  description: 'Stablecoin payment gateway: USDT and USDC invoices, a ledger-backed balance, withdrawals and signed webhooks',
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: its scripts need that request's CSP nonce (proxy.ts), which a page
  // prerendered at build time could not carry.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
