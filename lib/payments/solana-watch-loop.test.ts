import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { sleep } from '@/lib/async/sleep';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { clearRailVerdicts } from '@/lib/chain/rail-stops';
import { setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { createTestTenant } from '@/lib/testing/fixtures';
import { solanaPayer } from '@/lib/testing/solana-payer';
import { watchChainLoop } from './watch-loop';
import { solanaTestNetwork } from '@/lib/testing/solana-network';

/**
 * The watch loop (the worker's job) watches Solana through its family's loop entry: with slots made on a timer, an
 * invoice paid from a wallet goes DETECTED then CONFIRMED with nobody advancing the node.
 */
const SLOT_MS = 50;
const FINALIZED_DEPTH = 8;
let node: SolanaNode;
let net: SolanaNetwork & { rpcUrl: string; tokenAddress: NonNullable<SolanaNetwork['tokenAddress']>; depositMnemonic: string };
beforeAll(async () => {
  node = await startSolanaNode({ slotTimeMs: SLOT_MS, finalizedDepth: FINALIZED_DEPTH });
  net = solanaTestNetwork(node);
  setNetworkOverride('test', net);
});
afterAll(async () => {
  setNetworkOverride('test', undefined, 'SOLANA');
  await node.stop();
});

async function until(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(25);
  }
}

it('the watch loop detects and confirms a Solana payment as slots pass', async () => {
  const t = await createTestTenant();
  clearRailVerdicts();
  const inv = await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, {
    ...CreateInvoiceBody.parse({ amount: '4.20', token: 'USDC' }),
    chain: 'SOLANA' as const,
  });
  const status = async () => (await t.db.select({ s: invoices.status }).from(invoices).where(eq(invoices.id, inv.id)))[0]!.s;
  const ac = new AbortController();
  const loop = watchChainLoop(t.db, 'test', { signal: ac.signal, runForMs: 30_000, pollMs: 100 });
  try {
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDC', 10_000_000n);
    const sent = Date.now();
    await payer.pay(wallet, ADDRESS_CODECS.solana.parse(inv.depositAddress), 'USDC', 4_200_000n);
    await until(async () => ['DETECTED', 'CONFIRMED'].includes(await status()), 10_000, 'the payment detected by the loop');
    const detectedMs = Date.now() - sent;
    await until(async () => (await status()) === 'CONFIRMED', 10_000, 'the payment confirmed once finalized');
    const confirmedMs = Date.now() - sent;
    console.log(
      `[solana-watch-loop] detected after ${detectedMs} ms, confirmed after ${confirmedMs} ms (slot ${SLOT_MS} ms, finalized depth ${FINALIZED_DEPTH})`,
    );
    // Confirmed no earlier than the finalized depth allows.
    expect(confirmedMs).toBeGreaterThanOrEqual(FINALIZED_DEPTH * SLOT_MS);
  } finally {
    ac.abort();
    await loop;
  }
}, 40_000);
