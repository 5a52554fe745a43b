import { and, asc, eq } from 'drizzle-orm';
import { getBase58Decoder, type Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, gasSpend, invoices, ledgerEntries, settlements, settlementTxs } from '@/db/schema';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { associatedTokenAccount } from '@/lib/chain/solana/associated-token-account';
import { solanaRpc } from '@/lib/chain/solana/rpc';
import { readSolanaTokenBalance } from '@/lib/chain/solana/token-balance';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { watchNetwork } from '@/lib/payments/watch-families';
import { createTestTenant } from '@/lib/testing/fixtures';
import { faultySolanaNode, solanaPayer } from '@/lib/testing/solana-payer';
import { createSettlements } from './create-settlements';
import { runSettlements } from './run-settlements';
import { settleConcurrency, settleInvoice, type SettleHooks, type SettleNetwork } from './settle-invoice';
import { solanaTestNetwork } from '@/lib/testing/solana-network';

/**
 * Issue 49: a CONFIRMED Solana invoice swept from its deposit token account to the hot wallet's, the gas wallet paying,
 * the account closed, credited through the ledger like the other families (CONFIRMED → PROCESSING_PAYOUT →
 * PAID_OUT), exactly once through a crash, a dropped transaction, a node behind and a payment arriving mid-sweep.
 * Payments are made by @solana/kit as a wallet would (lib/testing/solana-payer.ts) on the stand-in node.
 */
const FINALIZED_DEPTH = 4;
const FEE = 10_000;
const RENT = 2_039_280;
let node: SolanaNode;
let t: Awaited<ReturnType<typeof createTestTenant>>;
let net: SettleNetwork<SolanaNetwork>;
const codec = ADDRESS_CODECS.solana;
const rpc = () => solanaRpc(node.url);

beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  t = await createTestTenant({ invoiceFeeRate: '0.01' });
  net = solanaTestNetwork(node, { feeWallet: codec.parse(node.keys.other.address), sweepMinimum: '0.10', sweepFee: '0.01' });
  setNetworkOverride('test', net);
});
afterAll(async () => {
  setNetworkOverride('test', undefined, 'SOLANA');
  await node?.stop();
});

/** The stand-in makes slots only when asked: each wait of the sweep makes some (a blockhash lives 150 blocks). */
const mining: SettleHooks = {
  onWait: () => {
    node.advance(25);
  },
};
const lamportsOf = async (a: Address) => (await rpc().call('getBalance', [a, { commitment: 'finalized' }])).value;
const usdcOf = async (account: Address) => (await readSolanaTokenBalance(rpc(), account, node.mints.USDC, 'confirmed')).units;
const rowOf = async (id: string) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const settlementOf = async (id: string) => (await t.db.select().from(settlements).where(eq(settlements.id, id)))[0]!;
const txsOf = (id: string) => t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, id));

/** An invoice paid from a wallet, CONFIRMED by the watcher, and its settlement made by the fan-out (PROCESSING_PAYOUT). */
async function confirmedSettlement(amount: string) {
  const inv = await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, {
    ...CreateInvoiceBody.parse({ amount, token: 'USDC' }),
    chain: 'SOLANA' as const,
  });
  const owner = codec.parse(inv.depositAddress);
  const payer = solanaPayer(node);
  const units = BigInt(Math.round(Number(amount) * 1e6));
  await payer.pay(await payer.funded('USDC', units), owner, 'USDC', units);
  node.advance(1);
  await watchNetwork(t.db, net);
  node.advance(FINALIZED_DEPTH);
  await watchNetwork(t.db, net);
  expect((await rowOf(inv.id)).status).toBe('CONFIRMED');
  // The fan-out counts the invoice's confirmations (32 slots) on top of finality.
  node.advance(CHAIN_SPECS.SOLANA.confirmations);
  await watchNetwork(t.db, net);
  const ids = await createSettlements(t.db, net);
  const [s] = await t.db.select().from(settlements).where(eq(settlements.invoiceId, inv.id));
  expect(ids).toContain(s!.id);
  expect((await rowOf(inv.id)).status).toBe('PROCESSING_PAYOUT');
  return { inv, owner, source: await associatedTokenAccount(owner, node.mints.USDC), units, settlementId: s!.id };
}

async function expectPaidOut(p: Awaited<ReturnType<typeof confirmedSettlement>>) {
  const s = await settlementOf(p.settlementId);
  expect(s.status).toBe('completed');
  expect((await rowOf(p.inv.id)).status).toBe('PAID_OUT');
  const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, s.id));
  expect(credits.map((c) => [c.kind, Number(c.amount)])).toEqual([['invoice_credit', Number(s.netAmount)]]);
  const types = await t.db
    .select({ type: events.type })
    .from(events)
    .where(eq(events.subjectId, p.inv.id))
    .orderBy(asc(events.createdAt), asc(events.id));
  expect(types.map((e) => e.type)).toEqual([
    'invoice.created',
    'invoice.detected',
    'invoice.confirmed',
    'invoice.processing_payout',
    'invoice.paid_out',
  ]);
  return s;
}

describe('the Solana settlement on the stand-in', () => {
  it('pay → CONFIRMED → swept, deposit account closed, gas wallet paying → PAID_OUT, the ledger credited the net once', async () => {
    const hotAta = await associatedTokenAccount(node.keys.hot.address, node.mints.USDC);
    const p = await confirmedSettlement('12.50');
    const gasBefore = await lamportsOf(node.keys.gas.address);
    const hotBefore = await usdcOf(hotAta);
    expect(await runSettlements(t.db, net, { only: p.settlementId, hooks: mining })).toEqual({ completed: 1, failed: 0 });
    const s = await expectPaidOut(p);
    expect(Number(s.netAmount) + Number(s.feeAmount)).toBe(12.5);
    expect(Number(s.feeAmount)).toBeGreaterThan(0);
    expect(s.gasPlan).toMatchObject({ kind: 'solana', units: '12500000' });
    // One transaction, never replaced, stored with its lifetime; the hot wallet got the whole amount (fee and net).
    const [tx] = await txsOf(s.id);
    expect(tx).toMatchObject({ step: 'custody', status: 'confirmed', replacedTxHashes: null, value: '12500000', toAddress: node.keys.hot.address });
    expect(tx!.lastValidBlockHeight).toBeGreaterThan(0);
    expect((await usdcOf(hotAta)) - hotBefore).toBe(p.units);
    // The deposit account is closed and its owner never held SOL.
    expect(await lamportsOf(p.source)).toBe(0);
    expect(await lamportsOf(p.owner)).toBe(0);
    // SOL per sweep: the fee (two signatures); the rent of the hot wallet's account if this sweep made it, given back by the close.
    const created = hotBefore === 0n;
    expect((await lamportsOf(node.keys.gas.address)) - gasBefore).toBe(-FEE + RENT - (created ? RENT : 0));
    const spent = await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, s.id));
    expect(spent.map((g) => [g.kind, g.txHash, g.costWei, g.gasUsed])).toEqual([['sweep_custody', tx!.txHash, String(FEE), '2']]);
    // A second run changes nothing.
    expect(await runSettlements(t.db, net, { only: p.settlementId, hooks: mining })).toEqual({ completed: 0, failed: 0 });
  });

  it('a crash between storing the signed transaction and broadcasting it: resumed by the same bytes, swept once', async () => {
    const hotAta = await associatedTokenAccount(node.keys.hot.address, node.mints.USDC);
    const p = await confirmedSettlement('3');
    const hotBefore = await usdcOf(hotAta);
    const crash: SettleHooks = {
      ...mining,
      beforeBroadcast: () => {
        throw new Error('simulated crash before broadcast');
      },
    };
    await expect(settleInvoice(t.db, net, p.settlementId, crash)).rejects.toThrow(/simulated crash/);
    const [stored] = await txsOf(p.settlementId);
    expect(stored).toMatchObject({ status: 'signed', step: 'custody' });
    node.advance(FINALIZED_DEPTH);
    // Nothing left: the tokens are on the deposit account, the signature unknown to the node.
    expect(await usdcOf(p.source)).toBe(p.units);
    expect((await rpc().call('getSignatureStatuses', [[stored!.txHash], { searchTransactionHistory: true }])).value[0]).toBeNull();

    await settleInvoice(t.db, net, p.settlementId, mining);
    await expectPaidOut(p);
    const [tx] = await txsOf(p.settlementId);
    expect(tx).toMatchObject({ status: 'confirmed', txHash: stored!.txHash, replacedTxHashes: null });
    expect((await usdcOf(hotAta)) - hotBefore).toBe(p.units);
    expect(await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, p.settlementId))).toHaveLength(1);
  });

  it('a dropped transaction is sent again as it is, and replaced only once its blockhash is safely expired', async () => {
    const hotAta = await associatedTokenAccount(node.keys.hot.address, node.mints.USDC);
    const p = await confirmedSettlement('4');
    const hotBefore = await usdcOf(hotAta);
    // A node that accepts every send and forwards none of the first signature's (a transaction lost on its way).
    const sent: string[] = [];
    let dropped: string | null = null;
    const lossy = await faultySolanaNode(node.url, {
      sendTransaction: (params) => {
        const bytes = Buffer.from(params[0] as string, 'base64');
        const signature = getBase58Decoder().decode(bytes.subarray(1, 65));
        sent.push(signature);
        dropped ??= signature;
        return signature === dropped ? { result: signature } : undefined;
      },
    });
    const replacedAt: { finalizedHeight: number; lastValid: number }[] = [];
    let first: { lastValid: number } | null = null;
    try {
      await settleInvoice(t.db, { ...net, rpcUrl: lossy.url }, p.settlementId, {
        ...mining,
        beforeBroadcast: async () => {
          const [row] = await txsOf(p.settlementId);
          if (!first) first = { lastValid: row!.lastValidBlockHeight! };
          else
            replacedAt.push({
              finalizedHeight: await rpc().call('getBlockHeight', [{ commitment: 'finalized' }]),
              lastValid: first.lastValid,
            });
        },
      });
    } finally {
      await lossy.stop();
    }
    await expectPaidOut(p);
    const [tx] = await txsOf(p.settlementId);
    // The dropped signature was sent again several times before anything new was signed, and replaced once.
    expect(tx!.replacedTxHashes).toEqual([dropped]);
    expect(sent.filter((s) => s === dropped).length).toBeGreaterThan(2);
    expect(new Set(sent).size).toBe(2);
    expect(replacedAt).toHaveLength(1);
    expect(replacedAt[0]!.finalizedHeight).toBeGreaterThan(replacedAt[0]!.lastValid);
    expect((await usdcOf(hotAta)) - hotBefore).toBe(p.units);
    // Only the transaction that landed paid a fee.
    expect(await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, p.settlementId))).toHaveLength(1);
  });

  it('a node behind or a failed read moves nothing, charges nothing and never fails the settlement; the real node then sweeps', async () => {
    const p = await confirmedSettlement('5');
    // Behind: its finalized view does not have the payment yet (the deposit account does not exist there).
    const behind = await faultySolanaNode(node.url, {
      getAccountInfo: (params) =>
        params[0] === p.source && (params[1] as { commitment?: string }).commitment === 'finalized'
          ? { result: { context: { slot: 1 }, value: null } }
          : undefined,
    });
    const broken = await faultySolanaNode(node.url, { getLatestBlockhash: { error: { code: -32603, message: 'Internal error' } } });
    const once = { maxAttempts: 1, backoffMs: 0 };
    try {
      for (const url of [behind.url, broken.url, behind.url, broken.url]) {
        const r = await runSettlements(t.db, { ...net, rpcUrl: url }, { only: p.settlementId, hooks: mining, retry: once });
        expect(r).toEqual({ completed: 0, failed: 1 });
        await t.db.update(settlements).set({ nextAttemptAt: new Date() }).where(eq(settlements.id, p.settlementId));
      }
    } finally {
      await behind.stop();
      await broken.stop();
    }
    const s = await settlementOf(p.settlementId);
    // Past its attempts, still not failed: the chain could not be read, which is no failure of the settlement.
    expect(s).toMatchObject({ status: 'processing', gasPlan: null });
    expect(Number(s.sweepFee)).toBe(0);
    expect(s.attempts).toBeGreaterThan(1);
    expect(await txsOf(p.settlementId)).toEqual([]);
    expect((await rowOf(p.inv.id)).status).toBe('PROCESSING_PAYOUT');
    expect(await usdcOf(p.source)).toBe(p.units);

    expect(await runSettlements(t.db, net, { only: p.settlementId, hooks: mining })).toEqual({ completed: 1, failed: 0 });
    await expectPaidOut(p);
  });

  it('a payment arriving during the sweep makes the close fail: replaced once expired, moving the settlement only, the account left open', async () => {
    const hotAta = await associatedTokenAccount(node.keys.hot.address, node.mints.USDC);
    const p = await confirmedSettlement('6');
    const hotBefore = await usdcOf(hotAta);
    const payer = solanaPayer(node);
    let paid = false;
    await settleInvoice(t.db, net, p.settlementId, {
      ...mining,
      beforeBroadcast: async () => {
        if (paid) return;
        paid = true;
        await payer.pay(await payer.funded('USDC', 700_000n), p.owner, 'USDC', 700_000n);
      },
    });
    await expectPaidOut(p);
    const [tx] = await txsOf(p.settlementId);
    expect(tx!.replacedTxHashes).toHaveLength(1);
    expect(tx!.status).toBe('confirmed');
    // The settlement's amount moved; the late payment is still on the open deposit account, for its own sweep.
    expect((await usdcOf(hotAta)) - hotBefore).toBe(p.units);
    expect(await usdcOf(p.source)).toBe(700_000n);
    // The refused transaction never landed and paid nothing.
    expect(
      await t.db
        .select()
        .from(gasSpend)
        .where(and(eq(gasSpend.referenceId, p.settlementId))),
    ).toHaveLength(1);
  });
  it('a sweep that lands failed (the close refused on chain, its fee paid) is replaced once final, and both fees are recorded', async () => {
    const hotAta = await associatedTokenAccount(node.keys.hot.address, node.mints.USDC);
    const p = await confirmedSettlement('2');
    const hotBefore = await usdcOf(hotAta);
    const payer = solanaPayer(node);
    let first: string | null = null;
    await settleInvoice(t.db, net, p.settlementId, {
      ...mining,
      beforeBroadcast: async () => {
        if (first) return;
        const [row] = await txsOf(p.settlementId);
        first = row!.txHash;
        // A payment lands, then the stored bytes reach a leader without preflight: they land and fail at CloseAccount.
        await payer.pay(await payer.funded('USDC', 300_000n), p.owner, 'USDC', 300_000n);
        await rpc().call('sendTransaction', [row!.rawTx, { encoding: 'base64', skipPreflight: true }]);
      },
    });
    await expectPaidOut(p);
    const failed = (await rpc().call('getSignatureStatuses', [[first!], { searchTransactionHistory: true }])).value[0];
    expect(failed?.err).toEqual({ InstructionError: [expect.any(Number), { Custom: 11 }] });
    const [tx] = await txsOf(p.settlementId);
    expect(tx).toMatchObject({ status: 'confirmed', replacedTxHashes: [first] });
    expect((await usdcOf(hotAta)) - hotBefore).toBe(p.units);
    expect(await usdcOf(p.source)).toBe(300_000n);
    const spent = await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, p.settlementId));
    expect(spent.map((g) => g.txHash).sort()).toEqual([first, tx!.txHash].sort());
    expect(spent.every((g) => g.costWei === String(FEE))).toBe(true);
  });
  it('sweeps of a network run side by side (settleConcurrency), each once', async () => {
    const hotAta = await associatedTokenAccount(node.keys.hot.address, node.mints.USDC);
    const paid = [await confirmedSettlement('1.5'), await confirmedSettlement('2.5'), await confirmedSettlement('3.5')];
    const hotBefore = await usdcOf(hotAta);
    expect(settleConcurrency(net)).toBeGreaterThan(1);
    const r = await runSettlements(t.db, net, { hooks: mining, concurrency: settleConcurrency(net) });
    expect(r).toEqual({ completed: 3, failed: 0 });
    for (const p of paid) {
      await expectPaidOut(p);
      expect((await txsOf(p.settlementId)).map((x) => x.replacedTxHashes)).toEqual([null]);
    }
    expect((await usdcOf(hotAta)) - hotBefore).toBe(paid.reduce((a, p) => a + p.units, 0n));
  });
});
