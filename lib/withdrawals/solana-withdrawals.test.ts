import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, getInitializeAccount3Instruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { ApiError } from '@/lib/api/errors';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { solanaRpc, type SolanaRpc } from '@/lib/chain/solana/rpc';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { rowsOf, type Db } from '@/lib/db';
import { getBalance } from '@/lib/ledger/get-balance';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { createTestTenant } from '@/lib/testing/fixtures';
import { faultySolanaNode, solanaPayer } from '@/lib/testing/solana-payer';
import { ledgerOf } from '@/lib/testing/tron-lane-helpers';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { createWithdrawal } from './create-withdrawal';
import { getMaxWithdrawal } from './get-max-withdrawal';
import type { LaneNetwork } from './lane-helpers';
import { processWithdrawals } from './process-withdrawals';

/**
 * Issue 49: USDC withdrawals on Solana from the hot wallet, the gas wallet paying the fee and, when the destination
 * wallet has no token account yet, its rent, which is the withdrawal's network fee (reserved in full at creation,
 * the part a transfer did not need given back when it completes). The rail is enabled by a test override (it is
 * not offered: the API's chain enum has no SOLANA), so withdrawals are made as the route would make them.
 */
const FINALIZED_DEPTH = 4;
const RENT = 2_039_280n;
let node: SolanaNode;
let rpc: SolanaRpc;
let payer: ReturnType<typeof solanaPayer>;
let net: LaneNetwork<SolanaNetwork>;
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  rpc = solanaRpc(node.url);
  payer = solanaPayer(node);
  const codec = ADDRESS_CODECS.solana;
  net = {
    family: 'solana',
    mode: 'test',
    chain: 'SOLANA',
    token: 'USDC',
    chainId: CHAIN_SPECS.SOLANA.devChainId.test,
    rpcUrl: node.url,
    tokenAddress: codec.wireForm(SOLANA_DEV.mints.USDC),
    decimals: 6,
    confirmations: CHAIN_SPECS.SOLANA.confirmations,
    gasWalletKey: SOLANA_DEV.gasWalletKey,
    hotWalletKey: SOLANA_DEV.hotWalletKey,
    tokens: [{ asset: 'USDC', address: codec.wireForm(SOLANA_DEV.mints.USDC), decimals: 6 }],
    minWithdrawal: '0.50',
    networkFee: '0.40',
    gasCoinUsd: '150',
  };
  setNetworkOverride('test', net);
  await node.mintTo('USDC', node.keys.hot.address, 1_000_000_000n);
  node.advance(1);
});
afterAll(async () => {
  setNetworkOverride('test', undefined, 'SOLANA');
  await node?.stop();
});

/** A tenant with `balance` USDC in test mode, credited through the ledger. */
async function usdcTenant(balance: string) {
  const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
  await t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId: t.tenant.id,
      mode: 'test',
      amount: balance,
      kind: 'test_credit',
      referenceType: 'test',
      referenceId: `funded-${randomUUID()}`,
      currency: 'USDC',
    }),
  );
  return t;
}
type Tenant = Awaited<ReturnType<typeof usdcTenant>>;

const withdraw = (t: Tenant, amount: string, destinationAddress: string) =>
  createWithdrawal(
    t.db,
    { tenantId: t.tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
    { amount, destinationAddress, chain: 'SOLANA' as never, token: 'USDC' },
    undefined,
    prepareWithdrawalControls,
  );
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ApiError ? { code: e.code, message: e.message } : e),
  );
const rowOf = async (db: Db, id: string) => (await db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
const balanceOf = async (t: Tenant) => (await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDC' })).toString();
const lamportsOf = async (a: Address) => BigInt((await rpc.call('getBalance', [a, { commitment: 'confirmed' }])).value);
/** USDC base units in `owner`'s associated token account; null when it has none. */
async function usdcOf(owner: Address): Promise<bigint | null> {
  const { value } = await rpc.call('getTokenAccountsByOwner', [
    owner,
    { mint: node.mints.USDC },
    { encoding: 'jsonParsed', commitment: 'confirmed' },
  ]);
  return value.length === 0 ? null : value.reduce((s, a) => s + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n);
}
/** Lane passes, finalizing in between, until the withdrawal is final. */
async function settle(db: Db, id: string, opts = {}) {
  for (let i = 0; i < 6 && ['PENDING', 'PROCESSING'].includes((await rowOf(db, id)).status); i++) {
    await processWithdrawals(db, net, opts);
    node.advance(FINALIZED_DEPTH);
  }
  return rowOf(db, id);
}
const spendOf = async (db: Db, id: string) =>
  rowsOf<{ cost_wei: string }>(await db.execute(sql`select cost_wei::text from gas_spend where reference_id = ${id}`));

describe('USDC withdrawals on Solana', () => {
  it('to a wallet without a token account: the transfer creates it, the gas wallet pays its rent, and the rent is the network fee', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdraw(t, '10.00', to);
    // Reserved: 1% and the network fee, which covers the rent (0.31 at 150 USD/SOL) under the configured 0.40.
    expect(w).toMatchObject({ chain: 'SOLANA', destinationAddress: to, netAmount: '10.00', feeAmount: '0.50', status: 'PENDING' });
    const [gasBefore, hotBefore] = [await lamportsOf(node.keys.gas.address), await lamportsOf(node.keys.hot.address)];

    await processWithdrawals(t.db, net);
    const sent = await rowOf(t.db, w.id);
    expect(sent.pendingReason).toBeNull();
    expect(sent).toMatchObject({ status: 'PROCESSING', nonce: null, sendAttempts: 1 });
    expect(sent.signedTx).toBeTruthy();
    expect(sent.txExpiration).toBeGreaterThan(0);
    node.advance(1);
    expect(await usdcOf(to)).toBe(10_000_000n);
    // Landed, not finalized: still PROCESSING, nothing sent again.
    await processWithdrawals(t.db, net);
    expect((await rowOf(t.db, w.id)).status).toBe('PROCESSING');

    const done = await settle(t.db, w.id);
    expect(done).toMatchObject({ status: 'COMPLETED', txHash: sent.txHash, pendingReason: null });
    expect(await usdcOf(to)).toBe(10_000_000n);
    // The gas wallet paid the rent and two signatures; the hot wallet no SOL at all.
    expect(gasBefore - (await lamportsOf(node.keys.gas.address))).toBe(RENT + 10_000n);
    expect(await lamportsOf(node.keys.hot.address)).toBe(hotBefore);
    expect((await spendOf(t.db, w.id)).map((s) => s.cost_wei)).toEqual([(RENT + 10_000n).toString()]);
    // Charged 2,049,280 lamports at 150 USD/SOL = 0.31 (rounded up); 0.09 of the 0.40 reserved comes back.
    expect(await ledgerOf(t.db, w.id)).toEqual({
      withdrawal: '-10.000000000000000000',
      withdrawal_fee: '-0.100000000000000000',
      network_fee: '-0.400000000000000000',
      network_fee_refund: '0.090000000000000000',
    });
    expect(await balanceOf(t)).toBe('89.59');
  });

  it('to a wallet whose token account exists (given as the wallet or as the account): no rent, the fee is the signatures', async () => {
    const t = await usdcTenant('100');
    const holder = await payer.funded('USDC', 1_000_000n);
    const ata = await payer.ata(holder.address, node.mints.USDC);
    node.advance(1);
    const [a, b] = [await withdraw(t, '5.00', holder.address), await withdraw(t, '5.00', ata)];
    const gasBefore = await lamportsOf(node.keys.gas.address);
    for (const w of [a, b]) expect((await settle(t.db, w.id)).status).toBe('COMPLETED');
    expect(await usdcOf(holder.address)).toBe(11_000_000n);
    expect(gasBefore - (await lamportsOf(node.keys.gas.address))).toBe(20_000n);
    // 10,000 lamports at 150 USD/SOL = 0.0015, charged 0.01: 0.39 back on each.
    for (const w of [a, b]) expect((await ledgerOf(t.db, w.id)).network_fee_refund).toBe('0.390000000000000000');
    expect(await balanceOf(t)).toBe('89.88');
  });

  it('Max reserves the rent: a Max withdrawal to a new wallet empties the balance and completes', async () => {
    const t = await usdcTenant('20');
    const max = await getMaxWithdrawal(
      t.db,
      { tenantId: t.tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
      { currency: 'USDC', chain: 'SOLANA' },
    );
    // (20 − 0.40) / 1.01 = 19.405… → 19.41; the fee a Max withdrawal is charged is the rest, 0.59.
    expect(max).toMatchObject({ maxAmount: '19.41', estimatedFee: '0.59', networkFee: '0.40', chain: 'SOLANA' });
    const w = await withdraw(t, max.maxAmount, (await generateKeyPairSigner()).address);
    expect(await balanceOf(t)).toBe('0');
    expect((await settle(t.db, w.id)).status).toBe('COMPLETED');
    expect(await balanceOf(t)).toBe('0.09');
  });

  it('the reserve covers the rent whatever the configured network fee', async () => {
    const cheap = { ...net, networkFee: '0.05' };
    setNetworkOverride('test', cheap);
    try {
      const t = await usdcTenant('10');
      const max = await getMaxWithdrawal(
        t.db,
        { tenantId: t.tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
        { currency: 'USDC', chain: 'SOLANA' },
      );
      expect(max.networkFee).toBe('0.31');
      const w = await withdraw(t, '1.00', (await generateKeyPairSigner()).address);
      expect(w.feeAmount).toBe('0.32');
    } finally {
      setNetworkOverride('test', net);
    }
  });

  it('refuses a token account that is not its owner’s associated one, another mint’s, a mint, a program, and a frozen account; nothing is debited', async () => {
    const t = await usdcTenant('100');
    const holder = await payer.funded('USDC', 1_000_000n);
    const aux = await auxiliaryTokenAccount(holder);
    const usdtHolder = await payer.funded('USDT', 1_000_000n);
    const frozen = await payer.funded('USDC', 1_000_000n);
    await node.freeze('USDC', await payer.ata(frozen.address, node.mints.USDC));
    node.advance(1);
    const cases: [string, string, RegExp][] = [
      [aux, 'not_associated_token_account', new RegExp(`send to the owner's wallet address ${holder.address}`)],
      [await payer.ata(usdtHolder.address, node.mints.USDT), 'token_account_other_mint', /another token/],
      [node.mints.USDT, 'mint_account', /token mint/],
      [node.mints.USDC, 'destination_token_contract', /token contract/],
      [TOKEN_PROGRAM_ADDRESS, 'program_account', /program/],
      [await payer.ata(frozen.address, node.mints.USDC), 'token_account_frozen', /frozen/],
      [frozen.address, 'token_account_frozen', /frozen/],
    ];
    for (const [to, code, sentence] of cases) {
      const got = (await refusal(withdraw(t, '5.00', to))) as { code: string; message: string };
      expect(got, to).toMatchObject({ code });
      expect(got.message).toMatch(sentence);
    }
    expect(await balanceOf(t)).toBe('100');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('a destination frozen after acceptance: the lane fails the withdrawal before signing and the money comes back', async () => {
    const t = await usdcTenant('100');
    const holder = await payer.funded('USDC', 1_000_000n);
    const w = await withdraw(t, '5.00', holder.address);
    await node.freeze('USDC', await payer.ata(holder.address, node.mints.USDC));
    node.advance(1);
    const done = await settle(t.db, w.id);
    expect(done).toMatchObject({ status: 'FAILED', txHash: null });
    expect(done.failureReason).toMatch(/frozen by the token issuer/);
    expect(await balanceOf(t)).toBe('100');
    expect(await usdcOf(holder.address)).toBe(1_000_000n);
  });

  it('a crash between the store and the broadcast: tracking sends the stored bytes, one transfer arrives', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdraw(t, '7.00', to);
    const crash = new Error('crash after store');
    await expect(processWithdrawals(t.db, net, { beforeBroadcast: () => Promise.reject(crash) })).rejects.toBe(crash);
    const stored = await rowOf(t.db, w.id);
    expect(stored).toMatchObject({ status: 'PROCESSING', broadcastAt: null });
    expect(await usdcOf(to)).toBeNull();
    const done = await settle(t.db, w.id);
    expect(done).toMatchObject({ status: 'COMPLETED', txHash: stored.txHash, sendAttempts: 1, replacedTxHashes: [] });
    expect(await usdcOf(to)).toBe(7_000_000n);
    const ata = await payer.ata(to, node.mints.USDC);
    expect(await rpc.call('getSignaturesForAddress', [ata, { commitment: 'confirmed' }])).toHaveLength(1);
  });

  it('a dropped transaction is re-sent as stored while its blockhash may land, and replaced only once safely expired', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdraw(t, '3.00', to);
    // A node that takes nothing in (as one dropping transactions under load): every send refused.
    const dropping = await faultySolanaNode(node.url, { sendTransaction: { error: { code: -32005, message: 'Node is unhealthy' } } });
    try {
      const lossy = { solanaRpc: solanaRpc(dropping.url) };
      await processWithdrawals(t.db, net, lossy);
      const first = await rowOf(t.db, w.id);
      expect(first.status).toBe('PROCESSING');
      // Past the blockhash's height at `confirmed`, but not yet at `finalized`: still the same signature, never re-signed.
      const current = Number(await rpc.call('getBlockHeight', [{ commitment: 'confirmed' }]));
      node.advance(first.txExpiration! - current + 1);
      await processWithdrawals(t.db, net, lossy);
      const held = await rowOf(t.db, w.id);
      expect(held).toMatchObject({ status: 'PROCESSING', txHash: first.txHash, replacedTxHashes: [] });
      expect(held.pendingReason).toMatch(/re-signed only once the finalized block height is past/);
      // Finalized past lastValidBlockHeight: safely expired, so the same pass signs anew (its send dropped again).
      node.advance(FINALIZED_DEPTH);
      await processWithdrawals(t.db, net, lossy);
      const resigned = await rowOf(t.db, w.id);
      expect(resigned).toMatchObject({ status: 'PROCESSING', sendAttempts: 2, replacedTxHashes: [first.txHash] });
      expect(resigned.txHash).not.toBe(first.txHash);
      // A healthy node: tracking sends the new stored bytes, which land once.
      const done = await settle(t.db, w.id);
      expect(done).toMatchObject({ status: 'COMPLETED', sendAttempts: 2, replacedTxHashes: [first.txHash] });
      expect(done.txHash).not.toBe(first.txHash);
      const [old] = (await rpc.call('getSignatureStatuses', [[first.txHash!], { searchTransactionHistory: true }])).value;
      expect(old).toBeNull();
      expect(await usdcOf(to)).toBe(3_000_000n);
    } finally {
      await dropping.stop();
    }
  });

  it('with the node down nothing moves: creation is a 503 with nothing debited, and the lane signs nothing', async () => {
    const t = await usdcTenant('100');
    const to = (await generateKeyPairSigner()).address;
    const w = await withdraw(t, '4.00', to);
    setNetworkOverride('test', { ...net, rpcUrl: 'http://127.0.0.1:1' });
    try {
      expect(await refusal(withdraw(t, '4.00', (await generateKeyPairSigner()).address))).toMatchObject({ code: 'service_unavailable' });
    } finally {
      setNetworkOverride('test', net);
    }
    expect(await balanceOf(t)).toBe('95.56');
    await processWithdrawals(t.db, net, { solanaRpc: solanaRpc('http://127.0.0.1:1') });
    const row = await rowOf(t.db, w.id);
    expect(row).toMatchObject({ status: 'PENDING', txHash: null, signedTx: null, sendAttempts: 0 });
    expect(row.pendingReason).toMatch(/Chain state could not be read/);
    expect(await usdcOf(to)).toBeNull();
    await t.db.update(withdrawals).set({ nextAttemptAt: new Date() }).where(eq(withdrawals.id, w.id));
    expect((await settle(t.db, w.id)).status).toBe('COMPLETED');
    expect(await usdcOf(to)).toBe(4_000_000n);
  });
});

/** A USDC token account of `owner` at a fresh address (not its ATA), as a program or an old wallet makes one. */
async function auxiliaryTokenAccount(owner: KeyPairSigner): Promise<Address> {
  const account = await generateKeyPairSigner();
  const { value: life } = await payer.kit.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(owner, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAccountInstruction({ payer: owner, newAccount: account, lamports: RENT, space: 165, programAddress: TOKEN_PROGRAM_ADDRESS }),
          getInitializeAccount3Instruction({ account: account.address, mint: node.mints.USDC, owner: owner.address }),
        ],
        m,
      ),
  );
  await payer.kit.sendTransaction(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message)), { encoding: 'base64' }).send();
  node.advance(1);
  return account.address;
}
