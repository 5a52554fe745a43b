/** Domains reserved for testing (RFC 2606, RFC 6761): no real mailbox behind them. */
const RESERVED = /(^|\.)(example\.(com|net|org)|test|example|invalid|localhost)$/;

/**
 * Whether a test-mode message may go to this address: test mode must never mail a real customer (issue 48: "nothing
 * sent in test mode to real addresses unless the operator allows it"). Reserved test domains always may; others only
 * when EMAIL_TEST_RECIPIENTS lists the address or its `@domain`, or is `*`. Live mode is not asked.
 */
export function testModeRecipientAllowed(to: string, allowList: string | undefined): boolean {
  const address = to.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (RESERVED.test(domain)) return true;
  const allowed = (allowList ?? '')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  return allowed.includes('*') || allowed.includes(address) || allowed.includes(`@${domain}`);
}
