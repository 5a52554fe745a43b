import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { watchNetwork } from '@/lib/payments/watch-families';
import { createSettlements } from '@/lib/settlements/create-settlements';
import type { SettleNetwork } from '@/lib/settlements/settle-invoice';
import { createTestTenant } from '@/lib/testing/fixtures';
import { solanaTestNetwork } from '@/lib/testing/solana-network';
import { solanaPayer } from '@/lib/testing/solana-payer';
import { networkLines } from './network-lines';
import { readOwedSnapshot } from './owed-snapshot';
import { readSolanaHoldings } from './read-solana';

/*
 * Issue 49, found by the e2e rail matrix: the solvency run failed on Solana ("not a Solana address") whenever a Solana
 * settlement was in flight, because the snapshot lower-cased every deposit address, and Base58 is case-sensitive.
 * The deposit account of a paid, not yet swept invoice is read under its own address.
 */
const FINALIZED_DEPTH = 4;
let node: SolanaNode;
let net: SettleNetwork<SolanaNetwork>;
const codec = ADDRESS_CODECS.solana;
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  // A chain id of this file's own: other files' Solana invoices (same test database) are not its settlements.
  net = solanaTestNetwork(node, { chainId: 200_000 + Math.floor(Math.random() * 800_000), sweepMinimum: '0.10', sweepFee: '0.01' });
  setNetworkOverride('test', net);
});
afterAll(async () => {
  setNetworkOverride('test', undefined, 'SOLANA');
  await node?.stop();
});

it('a paid Solana invoice awaiting its sweep: the solvency read finds its deposit account under its Base58 address', async () => {
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  const inv = await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, {
    ...CreateInvoiceBody.parse({ amount: '7.25', token: 'USDC' }),
    chain: 'SOLANA',
  });
  const payer = solanaPayer(node);
  await payer.pay(await payer.funded('USDC', 7_250_000n), codec.parse(inv.depositAddress), 'USDC', 7_250_000n);
  node.advance(1);
  await watchNetwork(t.db, net);
  node.advance(FINALIZED_DEPTH + CHAIN_SPECS.SOLANA.confirmations);
  await watchNetwork(t.db, net);
  expect(await createSettlements(t.db, net)).toHaveLength(1);

  const snap = await readOwedSnapshot(t.db, 'test');
  expect([...(snap.depositAddresses.get(`${net.chainId}:USDC`) ?? [])]).toContain(inv.depositAddress);
  const holdings = await readSolanaHoldings(net, snap.depositAddresses, async () => []);
  expect(holdings.depositBalances.get(`USDC:${inv.depositAddress}`)).toBe('7.25');
  const line = networkLines(net, snap, { withdrawals: new Map(), feeTxs: new Map() }, holdings).find((l) => l.kind === 'token')!;
  expect(line.holdings!.find((h) => h.role === 'deposit')).toEqual({ address: inv.depositAddress, role: 'deposit', amount: '7.25' });
});
