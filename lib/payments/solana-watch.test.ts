import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers, events, heldPayments, invoices } from '@/db/schema';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { loadCursor } from '@/lib/chain/cursor';
import { setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { expireInvoices } from '@/lib/invoices/expire-invoices';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { createTestTenant } from '@/lib/testing/fixtures';
import { listAddresses, resetScreeningAfterEach } from '@/lib/testing/screening';
import { faultySolanaNode, solanaPayer } from '@/lib/testing/solana-payer';
import { watchNetwork } from './watch-families';
import { solanaTestNetwork } from '@/lib/testing/solana-network';

/**
 * Issue 49 step 3: the Solana watcher through the family-neutral entry (watchNetwork). A payment into an invoice's
 * deposit token account is DETECTED once the node lists it at `confirmed` and CONFIRMED only once the node reports
 * the transaction `finalized`; a failed read fails the pass and changes nothing.
 */
const FINALIZED_DEPTH = 4;
let node: SolanaNode;
let t: Awaited<ReturnType<typeof createTestTenant>>;
type Net = SolanaNetwork & { rpcUrl: string; tokenAddress: NonNullable<SolanaNetwork['tokenAddress']>; depositMnemonic: string };
let net: Net;
const codec = ADDRESS_CODECS.solana;

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

const newInvoice = (amount = '12.50') =>
  createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, {
    ...CreateInvoiceBody.parse({ amount, token: 'USDC' }),
    chain: 'SOLANA' as const,
  });
const rowOf = async (id: string) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const typesOf = async (id: string) =>
  (await t.db.select({ type: events.type }).from(events).where(eq(events.subjectId, id)).orderBy(asc(events.createdAt), asc(events.id))).map(
    (e) => e.type,
  );

describe('the Solana watcher on the stand-in', () => {
  resetScreeningAfterEach();

  it('an invoice paid from a wallet is DETECTED at confirmed and CONFIRMED at finalized, once', async () => {
    const inv = await newInvoice();
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDC', 100_000_000n);
    const signature = await payer.pay(wallet, codec.parse(inv.depositAddress), 'USDC', 12_500_000n);

    // Landed but not yet confirmed: nothing seen, nothing changes.
    await watchNetwork(t.db, net);
    expect((await rowOf(inv.id)).status).toBe('PENDING');

    node.advance(1);
    await watchNetwork(t.db, net);
    expect(await rowOf(inv.id)).toMatchObject({ status: 'DETECTED' });
    expect(Number((await rowOf(inv.id)).amountReceived)).toBe(12.5);
    expect(await typesOf(inv.id)).toEqual(['invoice.created', 'invoice.detected']);
    const [transfer] = await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id));
    expect(transfer).toMatchObject({ txHash: signature, fromAddress: wallet.address, toAddress: inv.depositAddress, token: 'USDC' });
    expect(Number(transfer!.amount)).toBe(12.5);

    // Still below finalized: not credited.
    node.advance(FINALIZED_DEPTH - 2);
    await watchNetwork(t.db, net);
    expect((await rowOf(inv.id)).status).toBe('DETECTED');

    node.advance(1);
    await watchNetwork(t.db, net);
    expect((await rowOf(inv.id)).status).toBe('CONFIRMED');
    await watchNetwork(t.db, net);
    expect(await typesOf(inv.id)).toEqual(['invoice.created', 'invoice.detected', 'invoice.confirmed']);
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toHaveLength(1);
    // The cursor is the confirmed slot the pass read at (what expiry compares with).
    expect((await loadCursor(t.db, net))!.lastBlock).toBeGreaterThan(0);
  });

  it('a payment listed at confirmed that the node never reports finalized is never credited', async () => {
    const inv = await newInvoice('3');
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDC', 10_000_000n);
    await payer.pay(wallet, codec.parse(inv.depositAddress), 'USDC', 3_000_000n);
    node.advance(1);
    // A node whose list stays at `confirmed` (on mainnet: a fork that is abandoned), while the real one finalizes.
    const ata = await payer.ata(codec.parse(inv.depositAddress), node.mints.USDC);
    const listed = await payer.kit.getSignaturesForAddress(ata, { commitment: 'confirmed' }).send();
    const stuck = await faultySolanaNode(node.url, {
      getSignaturesForAddress: (params) =>
        params[0] === ata ? { result: JSON.parse(JSON.stringify(listed, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) } : undefined,
    });
    try {
      const viaStuck = { ...net, rpcUrl: stuck.url };
      await watchNetwork(t.db, viaStuck);
      expect((await rowOf(inv.id)).status).toBe('DETECTED');
      node.advance(FINALIZED_DEPTH + 2);
      await watchNetwork(t.db, viaStuck);
      expect((await rowOf(inv.id)).status).toBe('DETECTED');
      expect(await typesOf(inv.id)).not.toContain('invoice.confirmed');
    } finally {
      await stuck.stop();
    }
    // The real node reports it finalized: credited.
    await watchNetwork(t.db, net);
    expect((await rowOf(inv.id)).status).toBe('CONFIRMED');
  });

  it('a failed read fails the pass: the invoice is neither detected nor expired, and the cursor does not move', async () => {
    const inv = await newInvoice('1');
    await watchNetwork(t.db, net);
    const before = await loadCursor(t.db, net);
    const broken = await faultySolanaNode(node.url, { getSignaturesForAddress: { error: { code: -32603, message: 'Internal error' } } });
    try {
      // Past its expiry by the clock: only a completed pass may let chain time reach it.
      await t.db
        .update(invoices)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(invoices.id, inv.id));
      node.advance(2);
      await expect(watchNetwork(t.db, { ...net, rpcUrl: broken.url })).rejects.toThrow();
      expect(await loadCursor(t.db, net)).toEqual(before);
      expect((await rowOf(inv.id)).status).toBe('PENDING');
    } finally {
      await broken.stop();
    }
    // A completed pass after the expiry lets it expire.
    await watchNetwork(t.db, net);
    expect(await expireInvoices(t.db, net)).toBeGreaterThanOrEqual(1);
    expect((await rowOf(inv.id)).status).toBe('EXPIRED');
  });

  it('another mint paid to the deposit owner is held, never counted; a payment after expiry is recorded late', async () => {
    const both: Net = { ...net, tokens: [...net.tokens!, { asset: 'USDT', address: codec.wireForm(SOLANA_DEV.mints.USDT), decimals: 6 }] };
    const inv = await newInvoice('5');
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDT', 10_000_000n);
    const signature = await payer.pay(wallet, codec.parse(inv.depositAddress), 'USDT', 5_000_000n);
    node.advance(1);
    await watchNetwork(t.db, both);
    expect((await rowOf(inv.id)).status).toBe('PENDING');
    const held = await t.db.select().from(heldPayments).where(eq(heldPayments.invoiceId, inv.id));
    expect(held).toEqual([
      expect.objectContaining({ txHash: signature, token: 'USDT', mismatch: 'token', fromAddress: wallet.address, toAddress: inv.depositAddress }),
    ]);
    await watchNetwork(t.db, both);
    expect(await t.db.select().from(heldPayments).where(eq(heldPayments.invoiceId, inv.id))).toHaveLength(1);
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toEqual([]);

    // Expired by a completed pass, then paid: the payment is recorded as late.
    await t.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(invoices.id, inv.id));
    await watchNetwork(t.db, both);
    await expireInvoices(t.db, both);
    expect((await rowOf(inv.id)).status).toBe('EXPIRED');
    const usdc = await payer.funded('USDC', 10_000_000n);
    await payer.pay(usdc, codec.parse(inv.depositAddress), 'USDC', 5_000_000n);
    node.advance(1);
    await watchNetwork(t.db, both);
    expect((await rowOf(inv.id)).status).toBe('EXPIRED');
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toEqual([expect.objectContaining({ late: true })]);
    expect(await typesOf(inv.id)).toContain('invoice.late_payment');
  });

  it('a listed sender is held for review, never counted', async () => {
    const inv = await newInvoice('2');
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDC', 10_000_000n);
    listAddresses(wallet.address);
    const signature = await payer.pay(wallet, codec.parse(inv.depositAddress), 'USDC', 2_000_000n);
    node.advance(FINALIZED_DEPTH);
    await watchNetwork(t.db, net);
    expect((await rowOf(inv.id)).status).toBe('PENDING');
    expect(await t.db.select().from(heldPayments).where(eq(heldPayments.invoiceId, inv.id))).toEqual([
      expect.objectContaining({ txHash: signature, mismatch: 'screening', fromAddress: wallet.address }),
    ]);
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toEqual([]);
  });
});
