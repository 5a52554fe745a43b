import type { Metadata } from 'next';
import './globals.css';

export const metadata: Metadata = {
  title: 'USDT Gateway',
  description: 'USDT BEP-20 payment gateway',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
