/** The latest invoice's checkout while it is unpaid (lib/portal/portal-pay-links.ts: the bare checkout, no claim token). */
export function PayLink({ href }: { href: string }) {
  return (
    <a
      href={href}
      className="inline-block rounded-md bg-indigo-600 px-3 py-1.5 text-xs font-medium text-white hover:bg-indigo-500"
      data-testid="portal-pay"
    >
      Pay the open invoice
    </a>
  );
}
