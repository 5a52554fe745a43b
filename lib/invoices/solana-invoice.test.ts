import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { getRail, setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { solanaDepositOwner } from '@/lib/chain/solana/deposit-owner-key';
import { readDeposits } from '@/lib/chain/solana/read-deposits';
import { solanaRpc } from '@/lib/chain/solana/rpc';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { watchNetwork } from '@/lib/payments/watch-families';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { solanaPayer } from '@/lib/testing/solana-payer';
import { createInvoice } from './create-invoice';
import { CreateInvoiceBody } from './schemas';
import { solanaTestNetwork } from '@/lib/testing/solana-network';

/**
 * Issue 49 step 1, with the Solana rail enabled in a test (a network override; RAILS cannot enable it): an invoice
 * gets its own deposit owner (SLIP-0010, m/44'/501'/index'/0'), a payer's wallet pays that owner's associated token
 * account, and the family's deposit read sees it at `confirmed` then `finalized`; the family's watcher then confirms it
 * (step by step in lib/payments/solana-watch.test.ts).
 */
const FINALIZED_DEPTH = 4;
let node: SolanaNode;
let t: Awaited<ReturnType<typeof createTestTenant>>;
let net: SolanaNetwork & { rpcUrl: string; tokenAddress: NonNullable<SolanaNetwork['tokenAddress']>; depositMnemonic: string };
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  t = await createTestTenant();
  net = solanaTestNetwork(node);
  setNetworkOverride('test', net);
});
afterAll(async () => {
  setNetworkOverride('test', undefined, 'SOLANA');
  await node.stop();
});

describe('a Solana invoice on the stand-in (rail enabled by a test override)', () => {
  it('gets a per-invoice deposit owner whose token account receives; detected at confirmed, final at finalized', async () => {
    expect(getRail('test', 'SOLANA', 'USDC')).toBe(net);
    // The API offers no SOLANA value yet (solana-not-offered.test.ts): the invoice is made as the route would, on the enabled rail.
    const input = { ...CreateInvoiceBody.parse({ amount: '12.50', token: 'USDC' }), chain: 'SOLANA' as const };
    const [a, b] = [
      await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, input),
      await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, input),
    ];
    const rows = await Promise.all([a, b].map(async (i) => (await t.db.select().from(invoices).where(eq(invoices.id, i.id)))[0]!));
    for (const [i, row] of [
      [a, rows[0]!],
      [b, rows[1]!],
    ] as const) {
      const owner = (await solanaDepositOwner(DEV_MNEMONIC, row.addressIndex)).address;
      // The Base58 key as stored and as shown: case-sensitive text, never lower-cased or checksummed.
      expect(row).toMatchObject({ chain: 'SOLANA', token: 'USDC', depositAddress: owner, status: 'PENDING' });
      expect(i.depositAddress).toBe(owner);
    }
    expect(rows[0]!.depositAddress).not.toBe(rows[1]!.depositAddress);

    const owner = ADDRESS_CODECS.solana.parse(a.depositAddress);
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDC', 100_000_000n);
    const signature = await payer.pay(wallet, owner, 'USDC', 12_500_000n);
    const rpc = solanaRpc(node.url);
    const read = () => readDeposits(rpc, { owner, mint: net.tokenAddress });
    expect((await read()).deposits).toEqual([]);
    node.advance(1);
    expect((await read()).deposits).toEqual([
      expect.objectContaining({ signature, amount: 12_500_000n, status: 'detected', senders: [wallet.address] }),
    ]);
    node.advance(FINALIZED_DEPTH - 1);
    expect((await read()).deposits).toEqual([expect.objectContaining({ signature, amount: 12_500_000n, status: 'finalized' })]);
    // The other invoice's owner received nothing.
    expect((await readDeposits(rpc, { owner: ADDRESS_CODECS.solana.parse(b.depositAddress), mint: net.tokenAddress })).deposits).toEqual([]);

    // The family's watcher records it, already finalized: paid and confirmed in one pass; the other invoice is untouched.
    await watchNetwork(t.db, net);
    const [after, other] = await Promise.all([a, b].map(async (i) => (await t.db.select().from(invoices).where(eq(invoices.id, i.id)))[0]!));
    expect(after!.status).toBe('CONFIRMED');
    expect(Number(after!.amountReceived)).toBe(12.5);
    expect(other!.status).toBe('PENDING');
  });

  it('is paid in test mode by POST /v1/test-helpers/invoices/{id}/pay: an SPL transfer from the faucet, found by the watcher', async () => {
    const input = { ...CreateInvoiceBody.parse({ amount: '7.25', token: 'USDC' }), chain: 'SOLANA' as const };
    const inv = await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, input);
    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '7.25' } });
    expect(paid.status, paid.text).toBe(200);
    // The faucet is the stand-in's funded wallet; the deposit owner's token account was created by the payment.
    expect(paid.body).toMatchObject({ invoiceId: inv.id, from: node.keys.faucet.address, to: inv.depositAddress, amount: '7.25' });
    expect(paid.body.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    node.advance(FINALIZED_DEPTH);
    await watchNetwork(t.db, net);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(row).toMatchObject({ status: 'CONFIRMED' });
    expect(Number(row!.amountReceived)).toBe(7.25);
    // Live mode has no faucet: the helper is test mode's only.
    expect((await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.live, body: { amount: '1' } })).status).toBe(404);
  });
});
